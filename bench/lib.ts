import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import type { JournalEntry } from '../src/services/changes/journal';

export interface LoadResult {
  readonly name: string;
  readonly requests: number;
  readonly errors: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
}

export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

/** Spawns a process that prints one JSON line when ready. */
export async function spawnJson<T>(cmd: string, args: string[]): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`${cmd} exited ${c}`)));
  });
  return { child, info: JSON.parse(line) as T };
}

export interface Req {
  readonly method?: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly body?: string;
}

/** Closed-loop load: `concurrency` workers send `total` requests as fast as answers come. */
export async function load(
  name: string,
  baseUrl: string,
  headers: Record<string, string>,
  next: (i: number) => Req,
  total: number,
  concurrency = 4,
): Promise<LoadResult> {
  const pool = new Pool(baseUrl, { connections: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < total) {
        const r = next(i++);
        const start = performance.now();
        const res = await pool.request({
          method: r.method ?? 'GET',
          path: r.path,
          headers: r.body ? { ...headers, 'content-type': 'application/json' } : headers,
          ...(r.body ? { body: r.body } : {}),
        });
        await res.body.text();
        latencies.push(performance.now() - start);
        if (res.statusCode >= 300) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: total,
    errors,
    rps: total / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` in a file. */
export function replaceSection(file: string, name: string, content: string): void {
  const text = readFileSync(file, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${file} has no ${name} section`);
  writeFileSync(file, `${text.slice(0, a + start.length)}\n${content}\n${text.slice(b)}`);
}

/** The built bundle's sandbox, in memory on a free port, in its own process. */
export function spawnBenchSandbox(lines: number, extra: string[] = []) {
  return spawnJson<{ baseUrl: string; accounts: Array<{ apiKey: string }> }>(process.execPath, [
    'dist/linedesk.js',
    ...['sandbox', '--json', '--port', '0', '--db', ':memory:', '--lines', String(lines), ...extra],
  ]);
}

/** The `i`th entry of a bench journal: an applied extend a minute after the last (a busy year's). */
export const benchJournalEntry = (i: number): JournalEntry => ({
  opId: `bench:${i}`,
  time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  target: 'https://panel.example/#0123456789abcdef',
  operation: 'extend',
  lineId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  username: `benchuser${i}`,
  quotedCost: 3,
  estimate: true,
  deducedCredits: 3,
  newBalance: 100_000 - 3 * i,
  charge: 'reply',
  outcome: 'applied',
  months: 1,
  connectionsBefore: 2,
  connectionsAfter: 2,
});

/** A journal file's text of `n` bench entries (JSONL, as the app writes it). */
export function benchJournalText(n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `${JSON.stringify(benchJournalEntry(i))}\n`;
  return text;
}

// npm run bench:bulk — 1,000 extends through the change engine against a rate-limited sandbox.
import os from 'node:os';
import { createClient } from '../src/api/client';
import { type BulkJob, planLine, toBulkLine } from '../src/domain/bulk';
import { runJob } from '../src/services/changes/engine';
import { replaceSection, spawnBenchSandbox } from './lib';

const LINES = Number(process.env.BENCH_LINES ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 100);

const sb = await spawnBenchSandbox(Math.ceil(LINES * 1.25), [
  '--credits',
  '100000000',
  '--rate-limit',
  String(RATE),
]);
const client = createClient({ baseUrl: sb.info.baseUrl, apiKey: sb.info.accounts[0]!.apiKey });

// Gather the lines and prices without counting that time (and let the bucket refill after).
const all = [];
for (let offset: number | null = 0; offset !== null; ) {
  const page = await client.listLines({ offset, limit: 100, type: 'premium' });
  all.push(...page.lines);
  offset = page.nextOffset;
}
const packages = (await client.packages()).packages;
const lines = all
  .slice(0, LINES)
  .map((l) => planLine(toBulkLine(l), 'extend', { months: 1, connections: 1 }, packages, Date.now()));
const expected = lines.reduce((s, l) => s + (l.cost ?? 0), 0);
const opening = (await client.me()).credits;
await new Promise((r) => setTimeout(r, (2 * RATE * 1000) / RATE + 200)); // a full bucket, as at the start of a day

const job: BulkJob = {
  id: 'bench',
  op: 'extend',
  months: 1,
  connections: 1,
  target: 'bench',
  createdAt: new Date().toISOString(),
  lines,
};
const t0 = performance.now();
const final = await runJob(job, { client, concurrency: 4, onLine: () => {}, cancelled: () => false });
const wall = (performance.now() - t0) / 1000;
const spent = opening - (await client.me()).credits;
await client.close();
sb.child.kill('SIGTERM');

const ideal = lines.length / RATE;
const floor = Math.max(0, lines.length - 2 * RATE) / RATE; // a full bucket lets the first 2R through at once
const unknown = final.lines.filter((l) => l.state === 'unknown' || l.state === 'sending').length;
const done = final.lines.filter((l) => l.state === 'done').length;
const ratio = wall / ideal;
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}: ${lines.length} extends, sandbox rate limit ${RATE}/s (bursts of ${2 * RATE}), runner concurrency 4.`,
  '',
  '| lines | rate limit | wall time | ideal (lines ÷ rate) | ratio | least possible with the burst | ratio to it | done | unknown | credits charged | credits expected |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  `| ${lines.length} | ${RATE}/s | ${wall.toFixed(2)} s | ${ideal.toFixed(2)} s | ${ratio.toFixed(2)}× | ${floor.toFixed(2)} s | ${(wall / floor).toFixed(2)}× | ${done} | ${unknown} | ${spent} | ${expected} |`,
  '',
  `Target ≤ 1.15× the ideal: **${ratio <= 1.15 ? 'met' : 'MISSED'}**. No double charge (charged = expected): **${spent === expected ? 'yes' : 'NO'}**. No line left unknown: **${unknown === 0 ? 'yes' : 'NO'}**.`,
].join('\n');
console.log(table);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:bulk', table);

// npm run bench:bulk — 1,000 extends at the sandbox's rate limit, three ways, interleaved:
//  - command: the built bundle, `node dist/linedesk.js extend --stdin --yes` with 1,000 ids on stdin,
//    end to end (start-up, lookups, quote, the job, the results);
//  - screens: the store with the lines marked (as the browser marks them) → openBulk → bulkStart;
//  - engine: the change engine alone on the same lines (the extends and nothing else): the yardstick;
//  - engine + intent log: the same, each line's record fsynced before its request as the app does:
//    the extends with the durability both front-ends must pay (the fsync's cost depends on the disk).
// Each run starts with a full bucket (as at the start of a day) and is timed against 1000/R.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createClient } from '../src/api/client';
import type { LineListItem, Package } from '../src/api/contract';
import { fileIntentLog } from '../src/app/intent-file';
import { fileJournal } from '../src/app/journal-file';
import { type BulkJob, planLine, toBulkLine } from '../src/domain/bulk';
import { runJob } from '../src/services/changes/engine';
import { createAppStore } from '../src/store/app-store';
import { replaceSection, spawnBenchSandbox } from './lib';

const LINES = Number(process.env.BENCH_LINES ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOTAL = Math.ceil(LINES * 1.25);

const sb = await spawnBenchSandbox(TOTAL, ['--credits', '100000000', '--rate-limit', String(RATE)]);
const { baseUrl } = sb.info;
const apiKey = sb.info.accounts[0]!.apiKey;
const tmp = mkdtempSync(join(os.tmpdir(), 'linedesk-bench-bulk-'));
const admin = createClient({ baseUrl, apiKey });

// The lines and prices, gathered outside any timing.
const all: LineListItem[] = [];
for (let offset: number | null = 0; offset !== null; ) {
  const page = await admin.listLines({ offset, limit: 100 });
  all.push(...page.lines);
  offset = page.nextOffset;
}
const packages = (await admin.packages()).packages;
const chosen = all.filter((l) => !l.is_trial).slice(0, LINES);
if (chosen.length < LINES) throw new Error(`only ${chosen.length} premium lines`);
const expected = (ps: readonly Package[]) =>
  chosen
    .map((l) => planLine(toBulkLine(l), 'extend', { months: 1, connections: 1 }, ps, Date.now()))
    .reduce((s, l) => s + (l.cost ?? 0), 0);
const want = expected(packages);

/** A full bucket: 2R tokens refill in 2 s. */
const refill = () => new Promise((r) => setTimeout(r, 2_000 + 300));

interface Run {
  readonly wall: number;
  readonly lists: number;
  readonly requests: number;
  readonly limited: number;
  readonly done: number;
  readonly unknown: number;
  readonly charged: number;
}

/** Counts a client's requests by its `onEvent` (one per attempt; a 429 answer counts too). */
function counter() {
  const c = { lists: 0, requests: 0, limited: 0 };
  const onEvent = (e: { method: string; path: string; status: number | null }) => {
    c.requests++;
    if (e.method === 'GET' && e.path === '/v1/lines/all') c.lists++;
    if (e.status === 429) c.limited++;
  };
  return { c, onEvent };
}

async function balance(): Promise<number> {
  return (await admin.me()).credits;
}

async function engineRun(i: number, durable = false): Promise<Run> {
  const { c, onEvent } = counter();
  const client = createClient({ baseUrl, apiKey, onEvent });
  const lines = chosen.map((l) =>
    planLine(toBulkLine(l), 'extend', { months: 1, connections: 1 }, packages, Date.now()),
  );
  const job: BulkJob = {
    id: `bench-${Date.now()}`,
    op: 'extend',
    months: 1,
    connections: 1,
    target: 'bench',
    createdAt: new Date().toISOString(),
    lines,
  };
  const before = await balance();
  await refill();
  const intents = durable ? fileIntentLog(join(tmp, `engine-${i}`)) : null;
  const t0 = performance.now();
  intents?.begin(job);
  const final = await runJob(job, {
    client,
    concurrency: 4,
    onLine: (l) => intents?.line(job.id, l),
    cancelled: () => false,
  });
  intents?.end(job.id);
  const wall = (performance.now() - t0) / 1000;
  await client.close();
  return {
    wall,
    ...c,
    done: final.lines.filter((l) => l.state === 'done').length,
    unknown: final.lines.filter((l) => l.state === 'unknown' || l.state === 'sending').length,
    charged: before - (await balance()),
  };
}

async function commandRun(i: number): Promise<Run> {
  const home = join(tmp, `command-${i}`);
  const env = {
    ...process.env,
    LINEDESK_BASE_URL: baseUrl,
    LINEDESK_API_KEY: apiKey,
    LINEDESK_DATA_DIR: join(home, 'data'),
    LINEDESK_CONFIG_DIR: join(home, 'config'),
    LINEDESK_STATE_DIR: join(home, 'state'),
    NO_COLOR: '1',
  };
  const before = await balance();
  await refill();
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    ['dist/linedesk.js', 'extend', '--stdin', '--yes', '--months', '1', '--json'],
    {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  child.stdin.end(`${chosen.map((l) => l.id).join('\n')}\n`);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  const wall = (performance.now() - t0) / 1000;
  if (code !== 0) throw new Error(`the command exited ${code}: ${err.slice(-500)}`);
  // The command logs every request it makes (method, path, status): counted from its log.
  const log = readFileSync(join(home, 'state', 'linedesk.log'), 'utf8').split('\n');
  const http = log.filter((l) => / http [A-Z]+ \//.test(l));
  const result = JSON.parse(out) as { lines: { outcome: string }[] };
  return {
    wall,
    lists: http.filter((l) => l.includes(' http GET /v1/lines/all ')).length,
    requests: http.length,
    limited: http.filter((l) => / → 429 /.test(l)).length,
    done: result.lines.filter((l) => l.outcome === 'applied').length,
    unknown: result.lines.filter((l) => l.outcome === 'unknown').length,
    charged: before - (await balance()),
  };
}

async function screensRun(i: number): Promise<Run> {
  const { c, onEvent } = counter();
  const client = createClient({ baseUrl, apiKey, onEvent });
  const home = join(tmp, `screens-${i}`);
  const store = createAppStore({
    client,
    target: { id: 'bench', kind: 'remote', label: 'bench', baseUrl },
    intents: fileIntentLog(join(home, 'intents')),
    journal: fileJournal(join(home, 'journal.jsonl')),
  });
  await store.getState().loadAccount();
  await store.getState().loadCatalog();
  // Marked as the browser marks them: each mark holds its list item.
  store.getState().markLines(chosen);
  const before = await balance();
  await refill();
  const counted = { ...c };
  const t0 = performance.now();
  store.getState().openBulk('extend');
  while (store.getState().bulk?.quoting) await new Promise((r) => setTimeout(r, 5));
  await store.getState().bulkStart();
  const wall = (performance.now() - t0) / 1000;
  const final = store.getState().bulk!.job;
  await client.close();
  return {
    wall,
    lists: c.lists - counted.lists,
    requests: c.requests - counted.requests,
    limited: c.limited - counted.limited,
    done: final.lines.filter((l) => l.state === 'done').length,
    unknown: final.lines.filter((l) => l.state === 'unknown' || l.state === 'sending').length,
    charged: before - (await balance()),
  };
}

const runs: Record<'command' | 'screens' | 'engine' | 'durable', Run[]> = {
  command: [],
  screens: [],
  engine: [],
  durable: [],
};
const ways = [
  ['command', commandRun],
  ['screens', screensRun],
  ['engine', (i: number) => engineRun(i)],
  ['durable', (i: number) => engineRun(i, true)],
] as const;
for (let round = 0; round < ROUNDS; round++)
  for (let k = 0; k < ways.length; k++) {
    // Rotated each round: no way always runs first or last.
    const [name, run] = ways[(k + round) % ways.length]!;
    const r = await run(round);
    runs[name].push(r);
    console.error(
      `round ${round + 1} ${name}: ${r.wall.toFixed(2)} s, ${r.lists} list requests, ${r.limited} × 429`,
    );
  }
await admin.close();
sb.child.kill('SIGTERM');
rmSync(tmp, { recursive: true, force: true });

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ideal = LINES / RATE;
const yard = median(runs.engine.map((r) => r.wall));
const row = (name: string, what: string, rs: readonly Run[]) => {
  const wall = median(rs.map((r) => r.wall));
  const once = rs.every((r) => r.done === LINES && r.unknown === 0 && r.charged === want);
  return `| ${name} | ${what} | ${wall.toFixed(2)} s | ${(wall / ideal).toFixed(2)}× | ${(wall / yard).toFixed(2)}× | ${median(rs.map((r) => r.lists))} | ${median(rs.map((r) => r.requests))} | ${median(rs.map((r) => r.limited))} | ${rs.map((r) => r.charged).join(', ')} | ${once ? 'yes' : '**NO**'} |`;
};
const cmd = median(runs.command.map((r) => r.wall)) / ideal;
const scr = median(runs.screens.map((r) => r.wall)) / ideal;
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(
      ' ',
    )} at the end: ${LINES} extends of ${LINES} premium lines among ${all.length}, sandbox rate limit R = ${RATE}/s (bursts of ${2 * RATE}), ${ROUNDS} rounds interleaved, medians; 1000/R = ${ideal.toFixed(2)} s; credits expected per run: ${want}.`,
  '',
  '| way | what runs | wall time | ratio to 1000/R | ratio to the engine alone | list requests | requests in all | 429 answers | credits charged per run | each line once |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  row('command', '`node dist/linedesk.js extend --stdin --yes`, ids on stdin', runs.command),
  row('screens', 'store: marked lines → `openBulk` → `bulkStart`', runs.screens),
  row('engine (yardstick)', '`runJob` on the planned lines, nothing else', runs.engine),
  row('engine + intent log', 'the same, each record fsynced before its request', runs.durable),
  '',
  `Goal ≤ 1.15 × 1000/R: command **${cmd <= 1.15 ? 'met' : 'MISSED'}** (${cmd.toFixed(2)}×), screens **${scr <= 1.15 ? 'met' : 'MISSED'}** (${scr.toFixed(2)}×). "Each line once": every run applied all ${LINES}, none unknown, and the balance fell by exactly the expected sum.`,
].join('\n');
console.log(table);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:bulk', table);

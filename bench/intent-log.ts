// npm run bench:intents — what a durable intent log costs: a 1,000-line job's records (the job, then
// `sending` and an outcome per line) appended with and without fsync, in the same run and directory.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileIntentLog } from '../src/app/intent-file';
import type { BulkJob, BulkLine } from '../src/domain/bulk';
import { replaceSection } from './lib';

const LINES = Number(process.env.BENCH_LINES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Where the data directory would be (not a tmpfs, where fsync costs nothing): BENCH_DIR to choose.
const base = process.env.BENCH_DIR ?? join(os.homedir(), '.cache');

const lines: BulkLine[] = Array.from({ length: LINES }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  username: `benchuser${i}`,
  before: {
    expMs: 1_800_000_000_000,
    expRaw: '2027-01-15T08:00:00Z',
    connections: 2,
    enabled: true,
    isTrial: false,
  },
  cost: 3,
  after: { expMs: 1_802_592_000_000 },
  state: 'pending',
}));
const job = (id: string): BulkJob => ({
  id,
  op: 'extend',
  months: 1,
  connections: 1,
  target: 'bench',
  createdAt: new Date().toISOString(),
  balanceBefore: 100_000,
  lines,
});

/** One job: begin, then per line `sending` and `done`, as the engine writes them. Milliseconds. */
function run(fsync: boolean, round: number): number {
  const dir = mkdtempSync(join(base, 'linedesk-bench-intents-'));
  try {
    const log = fileIntentLog(dir, undefined, { fsync });
    const t = performance.now();
    log.begin(job(`bench-${round}`));
    for (const l of lines) {
      log.line(`bench-${round}`, { ...l, state: 'sending' });
      log.line(`bench-${round}`, {
        ...l,
        state: 'done',
        deducedCredits: 3,
        newBalance: 99_000,
        charge: 'reply',
      });
    }
    return performance.now() - t;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const without: number[] = [];
const withSync: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  without.push(run(false, r)); // interleaved, so both see the same disk
  withSync.push(run(true, r));
}
const records = 1 + 2 * LINES;
const a = median(without);
const b = median(withSync);
const cpu = os.cpus();
const text = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, Node ${process.version}, a directory under ${base} (${ROUNDS} rounds, median): one job of ${LINES} lines, ${records} records.`,
  '',
  '| appends | without fsync | with fsync (file, and the directory at begin) | ratio | per record with fsync |',
  '|---:|---:|---:|---:|---:|',
  `| ${records} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(b / a).toFixed(1)}× | ${((b / records) * 1000).toFixed(0)} µs |`,
].join('\n');
console.log(text);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:intents', text);

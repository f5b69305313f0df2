// npm run bench:journal — what reading the journal costs as it grows: every read of the account
// (start, each change, `r`, `linedesk account`) reads it to judge balance drift. A journal of N entries
// read whole by a new reader (a start), then read again by the same reader after one more entry (what
// every later account read of a session does), in the same run.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileJournal } from '../src/app/journal-file';
import { benchJournalEntry, benchJournalText, replaceSection } from './lib';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

const rows: string[] = [];
for (const n of SIZES) {
  const dir = mkdtempSync(join(os.tmpdir(), 'linedesk-bench-journal-'));
  const file = join(dir, 'journal.jsonl');
  const text = benchJournalText(n);
  appendFileSync(file, text);
  const whole: number[] = [];
  const again: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const reader = fileJournal(file);
    whole.push(time(() => reader.read()));
    reader.append(benchJournalEntry(n + r));
    again.push(time(() => reader.read()));
  }
  rmSync(dir, { recursive: true, force: true });
  const a = median(whole);
  const b = median(again);
  rows.push(
    `| ${n.toLocaleString('en-US')} | ${(text.length / 1e6).toFixed(1)} MB | ${a.toFixed(1)} ms | ${b.toFixed(2)} ms | ${(a / b).toFixed(0)}× |`,
  );
}
const cpu = os.cpus();
const out = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, Node ${process.version}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} (${ROUNDS} rounds, medians).`,
  '',
  '| entries | file | read whole (a new reader: a start) | read again after one more entry (every later read) | ratio |',
  '|---:|---:|---:|---:|---:|',
  ...rows,
].join('\n');
console.log(out);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:journal', out);

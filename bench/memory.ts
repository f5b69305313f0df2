// npm run bench:memory — what holds the app's bytes: resident memory and heap snapshots after 1,000
// page turns, and `A` (mark every line) then the bulk preview on the same 100,000-line sandbox.
import { readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { heapSummaryText, summariseHeap } from './heap-summary';
import { percentile, replaceSection, spawnBenchSandbox } from './lib';
import { type AppInPty, cpuSec, launchApp, rssMb, sleep } from './pty-app';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const TURNS = Number(process.env.BENCH_TURNS ?? 1_000);
const SNAPSHOTS = process.env.BENCH_SNAPSHOTS !== '0';
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const f1 = (n: number) => n.toFixed(1);
const n = (x: number) => x.toLocaleString('en-US');
const load = () => os.loadavg()[0]!.toFixed(2);

console.error(`seeding ${n(LINES)} lines…`);
const sb = await spawnBenchSandbox(LINES);
const snapDir = join(os.tmpdir(), `ld-bench-snaps-${process.pid}`);
const launch = () =>
  launchApp(sb.info.baseUrl, sb.info.accounts[0]!.apiKey, 120, 40, [
    '--heapsnapshot-signal=SIGUSR2',
    `--diagnostic-dir=${snapDir}`,
  ]);

/** Has the app write a heap snapshot (it collects garbage first) and waits until it is whole. */
async function snapshot(a: AppInPty): Promise<string> {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(snapDir, { recursive: true });
  const before = new Set(readdirSync(snapDir));
  process.kill(a.pid, 'SIGUSR2');
  for (;;) {
    await sleep(500);
    const file = readdirSync(snapDir).find((f) => !before.has(f));
    if (!file) continue;
    const path = join(snapDir, file);
    let size = -1;
    for (;;) {
      await sleep(1000);
      const now = statSync(path).size;
      if (now > 0 && now === size) return path;
      size = now;
    }
  }
}

async function started() {
  const a = launch();
  await a.until(/1–\d+ of [\d,]+/);
  await a.settle(500);
  return a;
}

/** Page turns forward (each a page not seen before); RSS levels at half and at the end (medians of 21). */
async function pageTurns() {
  const a = await started();
  const start = rssMb(a.pid);
  const pageSize = Number(/(?<!\d)1–(\d+) of/.exec(a.screen())![1]);
  const atHalf: number[] = [];
  const atEnd: number[] = [];
  const half = Math.floor(TURNS / 2);
  for (let i = 1; i <= TURNS; i++) {
    a.write('\u001b[6~');
    await a.until(new RegExp(`(?<![\\d,])${n(i * pageSize + 1)}–${n((i + 1) * pageSize)} of`), 5000);
    if (i > half - 21 && i <= half) atHalf.push(rssMb(a.pid));
    if (i > TURNS - 21) atEnd.push(rssMb(a.pid));
  }
  await a.settle(200);
  const rss = { start, half: median(atHalf), end: median(atEnd) };
  const after = SNAPSHOTS ? await snapshot(a) : null;
  a.kill();
  return { rss, after };
}

/** `A` on every line, then the bulk extend preview over the marks. */
async function markAll() {
  const a = await started();
  const rssStart = rssMb(a.pid);
  const cpu0 = cpuSec(a.pid);
  const t0 = performance.now();
  a.write('A');
  const marked = await a.until(/Marked [\d,]+ lines matching/, 600_000);
  const markMs = marked - t0;
  const markCpu = cpuSec(a.pid) - cpu0;
  await a.settle(300);
  const rssMarked = rssMb(a.pid);
  const t1 = performance.now();
  a.write('e');
  const preview = await a.until(/Extend [\d,]+ marked lines/, 120_000);
  const previewMs = preview - t1;
  await a.settle(1000);
  const rssPreview = rssMb(a.pid);
  // A scroll in the preview: one frame for one key, with 100,000 lines behind it.
  const scroll: number[] = [];
  for (let i = 0; i < 10; i++) {
    const before = a.screen();
    const t = performance.now();
    a.write('\u001b[B');
    scroll.push((await waitChange(a, before)) - t);
    await a.settle(60);
  }
  const after = SNAPSHOTS ? await snapshot(a) : null;
  a.kill();
  return { rssStart, markMs, markCpu, rssMarked, previewMs, rssPreview, scrollMs: median(scroll), after };
}

async function waitChange(a: AppInPty, before: string) {
  const start = performance.now();
  while (a.screen() === before && performance.now() - start < 5000) await sleep(1);
  return performance.now();
}

const loadBefore = load();
let turns: Awaited<ReturnType<typeof pageTurns>>;
let mark: Awaited<ReturnType<typeof markAll>>;
let idle: string | null = null;
try {
  if (SNAPSHOTS) {
    const a = await started();
    idle = await snapshot(a);
    a.kill();
  }
  turns = await pageTurns();
  mark = await markAll();
} finally {
  sb.child.kill('SIGTERM');
}
const loadAfter = load();

const growth = ((turns.rss.end - turns.rss.half) / turns.rss.half) * 100;
const summaries: string[] = [];
const summarise = (file: string | null, title: string) => {
  if (file) summaries.push(heapSummaryText(summariseHeap(file, 10), title));
};
summarise(idle, 'At start (first page shown)');
summarise(turns.after, `After ${n(TURNS)} page turns`);
summarise(mark.after, 'Every line marked, the bulk preview open');
// Each snapshot is 20–140 MB: kept only when asked for (to open in DevTools).
if (process.env.BENCH_KEEP_SNAPSHOTS) console.error(`snapshots kept in ${snapDir}`);
else rmSync(snapDir, { recursive: true, force: true });
const text = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${n(LINES)} lines in the sandbox (its own process), the app at 120×40; load average ${loadBefore} before, ${loadAfter} after (2 cores).`,
  '',
  '| measure | value | goal |',
  '|---|---:|---|',
  `| resident memory at start / after ${n(TURNS / 2)} / after ${n(TURNS)} page turns (medians of 21 turns) | ${f1(turns.rss.start)} / ${f1(turns.rss.half)} / ${f1(turns.rss.end)} MB; ${f1(growth)}% over the last ${n(TURNS / 2)} | ≤ 100 MB, flat |`,
  `| \`A\` on ${n(LINES)} lines: key → "Marked …" frame; the app's CPU meanwhile | ${f1(mark.markMs / 1000)} s; ${f1(mark.markCpu)} s CPU | ≤ 2 s |`,
  `| resident memory before \`A\` / every line marked / the extend preview open | ${f1(mark.rssStart)} / ${f1(mark.rssMarked)} / ${f1(mark.rssPreview)} MB | ≤ 130 MB with the preview open |`,
  `| the preview: \`e\` → its frame; a scroll key → its frame (median of 10) | ${f1(mark.previewMs)} / ${f1(mark.scrollMs)} ms |  |`,
  '',
  ...summaries.flatMap((s) => [s, '']),
].join('\n');
console.log(text);
// Without snapshots the section would lose its tables of what holds the bytes: printed only.
if (process.env.BENCH_WRITE !== '0' && SNAPSHOTS)
  replaceSection('docs/PERFORMANCE.md', 'bench:memory', text.trimEnd());
process.exit(0);

// npm run bench — the built app in a real pseudo-terminal against a 100,000-line sandbox.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from '../scripts/bundle-options.mjs';
import { benchJournalText, percentile, replaceSection, spawnBenchSandbox } from './lib';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
/** BENCH_JOURNAL=100000: each launch starts with a journal of that many entries (a busy year's). */
const JOURNAL = Number(process.env.BENCH_JOURNAL ?? 0);
const budgets = JSON.parse(readFileSync('bench/budgets.json', 'utf8')) as Record<string, number>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

// The yardsticks: bare node, and a minimal Ink app bundled like ours.
mkdirSync('.bench', { recursive: true });
// The yardstick is Ink as published (only its devtools stub, which a bundle needs); the same hello
// with our start-up fixes is measured beside it, for what they give any Ink app.
await build({
  ...BUNDLE_OPTIONS,
  plugins: (BUNDLE_OPTIONS.plugins ?? []).filter((p) => p.name !== 'patch-ink'),
  entryPoints: ['bench/hello.tsx'],
  outfile: '.bench/hello.js',
});
await build({ ...BUNDLE_OPTIONS, entryPoints: ['bench/hello.tsx'], outfile: '.bench/hello-fixed.js' });
// Each hello starts as linedesk does: through the launcher, which turns on Node's compile cache (so
// warm is warm for both; NODE_DISABLE_COMPILE_CACHE=1 makes both cold).
for (const name of ['hello', 'hello-fixed'])
  writeFileSync(
    `.bench/${name}-launch.mjs`,
    readFileSync('scripts/launcher.mjs', 'utf8').replace("import('./app.js')", `import('./${name}.js')`),
  );

console.error(`seeding ${LINES} lines…`);
const sb = await spawnBenchSandbox(LINES);
// The journal each launch copies, written once (its folder only when there is a journal to hold).
const journalFile =
  JOURNAL > 0 ? join(mkdtempSync(join(tmpdir(), 'ld-bench-journal-')), 'journal.jsonl') : null;
if (journalFile) writeFileSync(journalFile, benchJournalText(JOURNAL));

/** One app in a pty; output is kept with timestamps so frames can be timed. */
function launch(
  cmd: string,
  args: string[],
  cols: number,
  rows: number,
  extraEnv: Record<string, string> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'ld-bench-'));
  mkdirSync(join(dir, 'config'), { mode: 0o700 });
  writeFileSync(
    join(dir, 'config', 'config.json'),
    JSON.stringify({ version: 1, defaultProfile: null, profiles: {}, welcomed: true }),
    { mode: 0o600 },
  );
  if (journalFile) copyFileSync(journalFile, join(dir, 'journal.jsonl'));
  // Each chunk with the screen after it: Ink 8 rewrites only the changed part of a row, so what a
  // frame shows is read off a terminal emulator, not off the bytes.
  const chunks: Array<{ t: number; d: string; screen?: string }> = [];
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const screenNow = () => {
    const b = term.buffer.active;
    return Array.from(
      { length: term.rows },
      (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '',
    ).join('\n');
  };
  const t0 = performance.now();
  const p = pty.spawn(cmd, args, {
    cols,
    rows,
    // No CI variable at all: set to anything, it turns colour off (supports-color) and the bench
    // would measure frames no user sees.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'CI')),
      LINEDESK_BASE_URL: sb.info.baseUrl,
      LINEDESK_API_KEY: sb.info.accounts[0]!.apiKey,
      LINEDESK_CONFIG_DIR: join(dir, 'config'),
      LINEDESK_DATA_DIR: dir,
      LINEDESK_STATE_DIR: dir,
      ...extraEnv,
    } as Record<string, string>,
  });
  let exited = false;
  p.onData((d) => {
    const chunk: { t: number; d: string; screen?: string } = { t: performance.now(), d };
    chunks.push(chunk);
    term.write(d, () => {
      chunk.screen = screenNow();
    });
  });
  p.onExit(() => {
    exited = true;
  });
  const text = () => chunks.map((c) => c.d).join('');
  /** Resolves when the screen after a chunk from `from` on matches, with that chunk's arrival time. */
  const until = async (re: RegExp, from = 0, timeout = 15_000) => {
    const start = performance.now();
    let i = from;
    for (;;) {
      for (; i < chunks.length && chunks[i]!.screen !== undefined; i++) {
        if (re.test(chunks[i]!.screen!)) return { index: i, t: chunks[i]!.t };
      }
      if (performance.now() - start > timeout)
        throw new Error(`timeout waiting for ${re}; the screen:\n${screenNow()}`);
      await sleep(1);
    }
  };
  /** Waits for `quietMs` without output; returns the time of the last chunk. */
  const settle = async (quietMs = 60) => {
    for (;;) {
      const last = chunks.at(-1)?.t ?? t0;
      if (performance.now() - last >= quietMs) return last;
      await sleep(5);
    }
  };
  return { p, t0, chunks, text, until, settle, exited: () => exited };
}

const procStat = (pid: number) => {
  const [utime, stime] = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]!
    .split(' ')
    .slice(11, 13)
    .map(Number);
  return {
    cpuTicks: utime! + stime!,
    rssMb: Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
  };
};
// The app is node under the pty; its pid is the pty child's.
const appPid = (p: { pid: number }) => p.pid;
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const CLEAR = /\u001b\[2J|\u001bc/g;

/**
 * Start-up variants, launched in turn (interleaved, so a busy moment hits all alike). The app's
 * build before this work (Node 20, Ink 6.8) joins when BENCH_BEFORE names its bundle.
 */
const BEFORE = process.env.BENCH_BEFORE;
const BEFORE_NODE = process.env.BENCH_BEFORE_NODE ?? '/usr/bin/node';
const BEFORE_LABEL = process.env.BENCH_BEFORE_LABEL ?? 'the build before #13 (Node 20, Ink 6.8)';
const DATA = /1–\d+ of [\d,]+/;
async function firstFrames(n: number) {
  type Variant =
    | 'node'
    | 'hello'
    | 'helloNoCache'
    | 'helloFixed'
    | 'app'
    | 'appNoCache'
    | 'before'
    | 'node20';
  const t: Record<Variant, number[]> = {
    node: [],
    hello: [],
    helloNoCache: [],
    helloFixed: [],
    app: [],
    appNoCache: [],
    before: [],
    node20: [],
  };
  const cpu = Object.fromEntries(Object.keys(t).map((k) => [k, [] as number[]])) as Record<Variant, number[]>;
  const time = async (
    key: Variant,
    cmd: string,
    args: string[],
    re: RegExp,
    env: Record<string, string> = {},
  ) => {
    const l = launch(cmd, args, 120, 40, env);
    t[key].push((await l.until(re)).t - l.t0);
    // The process's CPU (all its threads) when the frame is seen, in clock ticks (10 ms here).
    cpu[key].push((procStat(appPid(l.p)).cpuTicks * 1000) / clockTicks);
    l.p.kill();
    await sleep(60);
  };
  for (let i = 0; i < n; i++) {
    let t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    t.node.push(performance.now() - t0);
    await time('hello', process.execPath, ['.bench/hello-launch.mjs'], /hello/);
    await time('helloNoCache', process.execPath, ['.bench/hello-launch.mjs'], /hello/, {
      NODE_DISABLE_COMPILE_CACHE: '1',
    });
    await time('helloFixed', process.execPath, ['.bench/hello-fixed-launch.mjs'], /hello/);
    await time('app', process.execPath, ['dist/linedesk.js'], DATA);
    await time('appNoCache', process.execPath, ['dist/linedesk.js'], DATA, {
      NODE_DISABLE_COMPILE_CACHE: '1',
    });
    if (BEFORE) {
      t0 = performance.now();
      spawnSync(BEFORE_NODE, ['-e', '0']);
      t.node20.push(performance.now() - t0);
      await time('before', BEFORE_NODE, [BEFORE], DATA);
    }
  }
  const m = (xs: number[]) => (xs.length ? (median(xs) ?? Number.NaN) : Number.NaN);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  return {
    ...(Object.fromEntries(Object.entries(t).map(([k, xs]) => [k, m(xs)])) as Record<Variant, number>),
    // Means: ticks are coarse, a median of them would be a multiple of 10 ms.
    cpu: Object.fromEntries(Object.entries(cpu).map(([k, xs]) => [k, mean(xs)])) as Record<Variant, number>,
  };
}

async function session(cols: number, rows: number) {
  const a = launch(process.execPath, ['dist/linedesk.js'], cols, rows);
  await a.until(/1–\d+ of [\d,]+/);
  await a.settle(300);
  const pid = appPid(a.p);
  const clearsBefore = (a.text().match(CLEAR) ?? []).length;

  // Cursor moves: one press, wait for its frame, then a pause beyond one frame.
  const moves: number[] = [];
  const bytes: number[] = [];
  for (let i = 0; i < 60; i++) {
    const from = a.chunks.length;
    const t = performance.now();
    a.p.write(i % 2 ? '\u001b[A' : '\u001b[B');
    const f = await a.until(/[\s\S]/, from);
    moves.push(f.t - t);
    await a.settle(40);
    bytes.push(a.chunks.slice(from).reduce((s, c) => s + Buffer.byteLength(c.d), 0));
    await sleep(20);
  }
  // A held key: 30 presses 8 ms apart; how long after the last press the last frame lands.
  let lastPress = 0;
  for (let i = 0; i < 30; i++) {
    a.p.write('j');
    lastPress = performance.now();
    await sleep(8);
  }
  const heldDone = (await a.settle(150)) - lastPress;
  await a.settle(100);
  // Ten PgDn 20 ms apart (faster than pages load): how many pages the list moves.
  const posOf = (screen: string) =>
    Number(/(?<![\d,])([\d,]+)–[\d,]+ of/.exec(screen)?.[1]?.replace(/,/g, '') ?? 0);
  await a.settle(100);
  const shownSize = () => {
    const m = /(?<![\d,])([\d,]+)–([\d,]+) of/.exec(a.chunks.at(-1)?.screen ?? '');
    return m ? Number(m[2]!.replace(/,/g, '')) - Number(m[1]!.replace(/,/g, '')) + 1 : 1;
  };
  const startPos = posOf(a.chunks.at(-1)?.screen ?? '');
  const size = shownSize();
  for (let i = 0; i < 10; i++) {
    a.p.write('\u001b[6~');
    await sleep(20);
  }
  await a.settle(400);
  const pagesMoved = Math.round((posOf(a.chunks.at(-1)?.screen ?? '') - startPos) / size);
  // Page change and search.
  let from = a.chunks.length;
  let t = performance.now();
  a.p.write('\u001b[6~');
  const pageMs = (await a.until(/\d+–\d+ of/, from)).t - t;
  await a.settle(100);
  from = a.chunks.length;
  t = performance.now();
  a.p.write('/');
  await a.until(/search:/, from);
  a.p.write('smith\r');
  const searchMs = (await a.until(/search "smith"/, from)).t - t;
  await a.settle(200);
  const clears = (a.text().match(CLEAR) ?? []).length - clearsBefore;

  // Idle: no frames, little CPU.
  const idleFrom = a.chunks.length;
  const cpu0 = procStat(pid).cpuTicks;
  await sleep(2000);
  const idleFrames = a.chunks.length - idleFrom;
  const idleCpuPct = ((procStat(pid).cpuTicks - cpu0) / clockTicks / 2) * 100;

  // Memory over 1,000 page turns, from an unfiltered list again.
  let f0 = a.chunks.length;
  a.p.write('/');
  await a.until(/search:/, f0);
  f0 = a.chunks.length;
  a.p.write('\u001b'); // Esc clears the search
  await a.until(/of [\d,]+ · status/, f0); // no search between the position and the filters
  await a.settle(300);
  const pageSize = Number(/(?<!\d)1–(\d+) of/.exec(a.text())![1]); // from the first frame
  // RSS moves with each collection: the level at 500 and at 1,000 is the median of the last 21 turns.
  const at500: number[] = [];
  const at1000: number[] = [];
  const n = (x: number) => x.toLocaleString('en-US');
  for (let i = 1; i <= 1000; i++) {
    const f = a.chunks.length;
    // Forward through the list: every turn is a page not seen before (fetched, parsed, drawn);
    // wait for the very page expected.
    a.p.write('\u001b[6~');
    await a.until(new RegExp(`(?<![\\d,])${n(i * pageSize + 1)}–${n((i + 1) * pageSize)} of`), f, 5000);
    if (i > 479 && i <= 500) at500.push(procStat(pid).rssMb);
    if (i > 979) at1000.push(procStat(pid).rssMb);
  }
  await a.settle(200);
  const rssAt500 = median(at500);
  const rss = median(at1000);
  a.p.write('\u0003');
  await sleep(200);
  moves.sort((x, y) => x - y);
  return {
    size: `${cols}×${rows}`,
    p50: percentile(moves, 50),
    p95: percentile(moves, 95),
    heldDone,
    pagesMoved,
    pageMs,
    searchMs,
    bytesPerFrame: median(bytes),
    clears,
    idleFrames,
    idleCpuPct,
    rss,
    growthPct: ((rss - rssAt500) / rssAt500) * 100,
  };
}

const N_LAUNCH = Number(process.env.BENCH_LAUNCHES ?? 15);
let start: Awaited<ReturnType<typeof firstFrames>>;
let sessions: Array<Awaited<ReturnType<typeof session>>>;
try {
  start = await firstFrames(N_LAUNCH);
  sessions = process.env.BENCH_ONLY === 'start' ? [] : [await session(120, 40), await session(80, 24)];
} finally {
  sb.child.kill('SIGTERM');
}

const f1 = (n: number) => n.toFixed(1);
const check = (ok: boolean) => (ok ? 'met' : '**MISSED**');
const ratio = (x: number, y: number) => `${f1(x / y)}×`;
const ratio2 = (x: number, y: number) => `${(x / y).toFixed(2)}×`; // the budgets are 1.3× and 1.5×
const rows: string[][] = [
  [
    `first frame with data (median of ${N_LAUNCH}, warm compile cache)`,
    `${f1(start.app)} ms`,
    `node -e 0: ${f1(start.node)} ms (${ratio(start.app, start.node)}); Ink hello (published Ink, compile cache): ${f1(start.hello)} ms (${ratio2(start.app, start.hello)}); CPU at the frame (mean): app ${f1(start.cpu.app)} ms, hello ${f1(start.cpu.hello)} ms`,
    `≤ ${budgets.firstFrameMedianMs} ms: ${check(start.app <= budgets.firstFrameMedianMs!)}; ≤ ${budgets.firstFrameVsHello}× hello: ${check(start.app / start.hello <= budgets.firstFrameVsHello!)}`,
  ],
  [
    'Ink hello with our bundle fixes',
    `${f1(start.helloFixed)} ms`,
    `${ratio(start.helloFixed, start.hello)} the published one`,
    '',
  ],
  [
    'first frame, compile cache off',
    `${f1(start.appNoCache)} ms`,
    `Ink hello, compile cache off: ${f1(start.helloNoCache)} ms (${ratio2(start.appNoCache, start.helloNoCache)}); CPU (mean): app ${f1(start.cpu.appNoCache)} ms, hello ${f1(start.cpu.helloNoCache)} ms`,
    `≤ ${budgets.firstFrameColdVsHello}× hello: ${check(start.appNoCache / start.helloNoCache <= budgets.firstFrameColdVsHello!)}`,
  ],
  ...(BEFORE
    ? [
        [
          `first frame, ${BEFORE_LABEL}`,
          `${f1(start.before)} ms`,
          `its Node's node -e 0: ${f1(start.node20)} ms; now ${ratio2(start.app, start.before)} of it; its CPU (mean) ${f1(start.cpu.before)} ms`,
          '',
        ],
      ]
    : []),
];
for (const s of sessions) {
  rows.push(
    [
      `${s.size} cursor move p50 / p95`,
      `${f1(s.p50)} / ${f1(s.p95)} ms`,
      '60 presses, one frame apart',
      `p95 ≤ ${budgets.keypressP95Ms} ms: ${check(s.p95 <= budgets.keypressP95Ms!)}`,
    ],
    [
      `${s.size} held key: last press → last frame`,
      `${f1(s.heldDone)} ms`,
      '30 presses 8 ms apart',
      `≤ ${budgets.heldKeyAfterLastMs} ms: ${check(s.heldDone <= budgets.heldKeyAfterLastMs!)}`,
    ],
    [
      `${s.size} ten PgDn 20 ms apart: pages moved`,
      `${s.pagesMoved} of 10`,
      'pages load slower than the keys arrive',
      `0 lost: ${check(s.pagesMoved === 10)}`,
    ],
    [`${s.size} page change / search`, `${f1(s.pageMs)} / ${f1(s.searchMs)} ms`, 'PgDn; "/smith" Enter', ''],
    [
      `${s.size} bytes per navigation frame (median)`,
      `${s.bytesPerFrame}`,
      '',
      `≤ ${budgets.bytesPerNavigationFrame}: ${check(s.bytesPerFrame <= budgets.bytesPerNavigationFrame!)}`,
    ],
    [
      `${s.size} full-screen clears while navigating`,
      `${s.clears}`,
      '',
      `${budgets.fullClearsWhileNavigating}: ${check(s.clears <= budgets.fullClearsWhileNavigating!)}`,
    ],
    [
      `${s.size} frames / CPU while idle (2 s)`,
      `${s.idleFrames} / ${f1(s.idleCpuPct)}%`,
      '',
      `${budgets.idleFrames} frames: ${check(s.idleFrames <= budgets.idleFrames!)}`,
    ],
    [
      `${s.size} resident memory after 1,000 page turns; growth over the last 500 (medians of 21 turns)`,
      `${f1(s.rss)} MB; ${f1(s.growthPct)}%`,
      '',
      `≤ ${budgets.rssMb} MB and ±${budgets.rssGrowthLast500Pct}%: ${check(s.rss <= budgets.rssMb! && Math.abs(s.growthPct) <= budgets.rssGrowthLast500Pct!)}`,
    ],
  );
}
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )} at the end, ${LINES.toLocaleString('en')} lines in the sandbox (its own process). Every launch has the environment a user of this machine has: NODE_EXTRA_CA_CERTS is ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set'}.`,
  '',
  '| measure | value | beside | budget (bench/budgets.json) |',
  '|---|---:|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
console.log(table);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:tui', table);
process.exit(0);

// npm run bench:lines — `linedesk lines --ndjson --all` and `--json --all` on 100,000 lines beside a
// plain client (bench/plain-lines.mjs), interleaved, medians: wall time and peak resident memory.
// BENCH_BEFORE=/path/to/linedesk.js adds another build's two commands to the same rounds; BENCH_WRITE=0
// prints the table without writing it into docs/PERFORMANCE.md; BENCH_CHAIN=1 adds the plain client's
// requests alone (bench/chain-lines.mjs: the floor of any client that asks a page once the one before
// it was answered).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { replaceSection, spawnBenchSandbox } from './lib';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
const BEFORE = process.env.BENCH_BEFORE;
const fmt = (n: number, d = 1) => n.toFixed(d);
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

console.error(`seeding ${LINES.toLocaleString('en')} lines…`);
const sb = await spawnBenchSandbox(LINES);
const home = mkdtempSync(join(os.tmpdir(), 'bench-lines-'));
const env = {
  ...process.env,
  BASE: sb.info.baseUrl,
  KEY: sb.info.accounts[0]!.apiKey,
  LINEDESK_BASE_URL: sb.info.baseUrl,
  LINEDESK_API_KEY: sb.info.accounts[0]!.apiKey,
  LINEDESK_DATA_DIR: join(home, 'data'),
  LINEDESK_CONFIG_DIR: join(home, 'config'),
  LINEDESK_STATE_DIR: join(home, 'state'),
};

// Each build keeps its own compile cache, here: a build removes the code caches of other builds
// when it writes its own (scripts/cached-script.mjs), so two builds sharing one directory (`before:`,
// or another build run on the machine meanwhile, in the default one) would start without theirs.
const ownEnv = { ...env, NODE_COMPILE_CACHE: join(home, 'compile-cache') };
const beforeEnv = { ...env, NODE_COMPILE_CACHE: join(home, 'compile-cache-before') };

interface Variant {
  readonly name: string;
  readonly args: readonly string[];
  /** The environment, when not `env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** How many lines the output holds (checked: every run must print every line). */
  readonly count: (out: Counter) => number;
}
interface Counter {
  newlines: number;
  objects: number;
}
const ndjson = (c: Counter) => c.newlines;
// A line of the JSON document is an object indented by four spaces.
const OBJECT = '\n    {';
const json = (c: Counter) => c.objects;
const variants: Variant[] = [
  { name: 'plain client (bench/plain-lines.mjs)', args: ['bench/plain-lines.mjs'], count: ndjson },
  {
    name: 'linedesk lines --ndjson --all',
    args: ['dist/linedesk.js', 'lines', '--ndjson', '--all'],
    count: ndjson,
    env: ownEnv,
  },
  {
    name: 'linedesk lines --json --all',
    args: ['dist/linedesk.js', 'lines', '--json', '--all'],
    count: json,
    env: ownEnv,
  },
  ...(process.env.BENCH_CHAIN === '1'
    ? [{ name: 'requests alone (bench/chain-lines.mjs)', args: ['bench/chain-lines.mjs'], count: ndjson }]
    : []),
  ...(BEFORE
    ? [
        {
          name: 'before: lines --ndjson --all',
          args: [BEFORE, 'lines', '--ndjson', '--all'],
          count: ndjson,
          env: beforeEnv,
        },
        {
          name: 'before: lines --json --all',
          args: [BEFORE, 'lines', '--json', '--all'],
          count: json,
          env: beforeEnv,
        },
      ]
    : []),
];

/** One run under /usr/bin/time (peak resident set, CPU seconds), its stdout read through a pipe and dropped. */
function runOnce(v: Variant): Promise<{ ms: number; rssMb: number; cpu: number }> {
  const timeFile = join(home, 'time.txt');
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...v.args], {
    env: v.env ?? env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const c: Counter = { newlines: 0, objects: 0 };
  let tail = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) c.newlines++;
    // The tail is shorter than the pattern, so a match found again here always takes new characters.
    const text = tail + chunk;
    for (let i = text.indexOf(OBJECT); i >= 0; i = text.indexOf(OBJECT, i + 1)) c.objects++;
    tail = text.slice(-(OBJECT.length - 1));
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${v.name} exited ${code}: ${stderr.slice(0, 500)}`));
      const n = v.count(c);
      if (n !== LINES) return reject(new Error(`${v.name} printed ${n} lines, not ${LINES}`));
      const [kb, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
      resolve({ ms, rssMb: kb! / 1024, cpu: user! + sys! });
    });
  });
}

const loadStart = os.loadavg()[0]!;
const results = new Map<string, { ms: number[]; rss: number[]; cpu: number[] }>(
  variants.map((v) => [v.name, { ms: [], rss: [], cpu: [] }]),
);
// One warm-up round (the compile cache, the sandbox's page cache), then rounds in a rotating order.
for (const v of variants) await runOnce(v);
for (let round = 0; round < RUNS; round++) {
  for (let k = 0; k < variants.length; k++) {
    const v = variants[(round + k) % variants.length]!;
    const r = await runOnce(v);
    results.get(v.name)!.ms.push(r.ms);
    results.get(v.name)!.rss.push(r.rssMb);
    results.get(v.name)!.cpu.push(r.cpu);
    console.error(
      `round ${round + 1}: ${v.name}: ${fmt(r.ms / 1000, 2)} s, ${fmt(r.cpu, 2)} s CPU, ${fmt(r.rssMb)} MB`,
    );
  }
}
const load = os.loadavg()[0]!;
sb.child.kill('SIGTERM');
rmSync(home, { recursive: true, force: true });

const med = (name: string) => ({ ms: median(results.get(name)!.ms), rss: median(results.get(name)!.rss) });
const plain = med(variants[0]!.name);
const nd = med(variants[1]!.name);
const rows = variants.map((v) => {
  const m = med(v.name);
  const range = results.get(v.name)!.ms;
  const cpu = median(results.get(v.name)!.cpu);
  return `| ${v.name} | ${fmt(m.ms / 1000, 2)} s (${fmt(Math.min(...range) / 1000, 2)}–${fmt(Math.max(...range) / 1000, 2)}) | ${fmt(m.ms / plain.ms, 2)}× | ${fmt(cpu, 2)} s | ${fmt(m.rss)} MB | ${fmt(m.rss / nd.rss, 2)}× |`;
});
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${LINES.toLocaleString('en')} lines; medians of ${RUNS} interleaved runs after a warm-up round; load average ${fmt(loadStart, 2)} at the start, ${fmt(load, 2)} at the end.`,
  '',
  '| command | wall time (range) | × plain client | CPU (user + system) | peak resident memory | × NDJSON memory |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows,
  '',
  `Goals (issue 27): \`--ndjson --all\` ≤ 1.0× the plain client (${fmt(nd.ms / plain.ms, 2)}×); \`--json --all\` within 1.1× the NDJSON form's memory (${fmt(med(variants[2]!.name).rss / nd.rss, 2)}×).`,
].join('\n');
console.log(table);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:lines', table);

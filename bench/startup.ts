// npm run bench:startup — a headless command's start-up against its yardstick, `node -e 0`: the built
// bundle runs `linedesk account --json` against a sandbox in its own process (2,000 lines), launches
// interleaved with bare Node's and with a plain client making the same requests (bench/plain-account.mjs:
// the floor of the request shape), medians, as ratios. Each twice: with the environment a user of this
// machine has (NODE_EXTRA_CA_CERTS as set) and without NODE_EXTRA_CA_CERTS. BENCH_BEFORE=<an older
// build's dist/linedesk.js> adds that build in the same rounds; each build has a compile-cache
// directory of its own (NODE_COMPILE_CACHE).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, replaceSection, spawnBenchSandbox } from './lib';

const ROUNDS = Number(process.env.BENCH_LAUNCHES ?? 21);
const BEFORE = process.env.BENCH_BEFORE;
const budgets = JSON.parse(readFileSync('bench/budgets.json', 'utf8')) as Record<string, number>;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

const sb = await spawnBenchSandbox(2_000);
const home = mkdtempSync(join(tmpdir(), 'ld-bench-startup-'));
for (const d of ['config', 'data', 'state']) mkdirSync(join(home, d), { mode: 0o700 });
const withCa: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'CI'));
const { NODE_EXTRA_CA_CERTS: _ca, ...withoutCa } = withCa;
const ENVS = { ca: withCa, noCa: withoutCa } as const;
// The sandbox and its key go only to the variants that talk to it: linedesk's by its own variables,
// the plain client's by BASE and KEY; `node -e 0` starts with the user's environment alone.
const linedeskEnv: NodeJS.ProcessEnv = {
  LINEDESK_BASE_URL: sb.info.baseUrl,
  LINEDESK_API_KEY: sb.info.accounts[0]!.apiKey,
  LINEDESK_CONFIG_DIR: join(home, 'config'),
  LINEDESK_DATA_DIR: join(home, 'data'),
  LINEDESK_STATE_DIR: join(home, 'state'),
};
const plainEnv: NodeJS.ProcessEnv = { BASE: sb.info.baseUrl, KEY: sb.info.accounts[0]!.apiKey };

type Variant = 'node' | 'account' | 'plain' | 'oneRequest' | 'version' | 'before' | 'beforeOne';
const VARIANTS: Record<Variant, string[] | null> = {
  node: ['-e', '0'],
  account: ['dist/linedesk.js', 'account', '--json'],
  // The floor of any client of this request shape: the same 20 requests in 5 rounds, nothing else.
  plain: ['bench/plain-account.mjs'],
  // One request: what start-up costs apart from account's expired count (rounds of one-line probes
  // sent together, then a page: services/expired-count.ts).
  oneRequest: ['dist/linedesk.js', 'lines', '--json', '--limit', '1'],
  version: ['dist/linedesk.js', '--version'],
  before: BEFORE ? [BEFORE, 'account', '--json'] : null,
  beforeOne: BEFORE ? [BEFORE, 'lines', '--json', '--limit', '1'] : null,
};
const times = Object.fromEntries(
  Object.keys(ENVS).map((e) => [
    e,
    Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, [] as number[]])),
  ]),
) as Record<keyof typeof ENVS, Record<Variant, number[]>>;

const cpu = Object.fromEntries(
  Object.keys(ENVS).map((e) => [
    e,
    Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, [] as number[]])),
  ]),
) as Record<keyof typeof ENVS, Record<Variant, number[]>>;
/** CPU of this process's waited-for children (user + system, all threads), in ms: clock ticks. */
const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const childCpuMs = () => {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[13]) + Number(f[14])) * 1000) / ticks;
};
const once = (args: string[], env: NodeJS.ProcessEnv) => {
  const c0 = childCpuMs();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { ms, cpuMs: childCpuMs() - c0 };
};
// Each build its own compile-cache directory: a build's headless code cache removes other builds'
// caches from the directory it is in (scripts/cached-script.mjs), so two builds sharing one (this
// one and BENCH_BEFORE's, or another checkout's run on the same machine, in the default directory
// under the system's temporary one) would each start without its cache every time.
const cacheDir = (v: Variant) => join(home, v === 'before' || v === 'beforeOne' ? 'cache-before' : 'cache');
try {
  // Two unmeasured rounds warm the compile cache and the file cache; then every round runs each
  // variant once, in turn, so a busy moment hits all alike.
  for (let i = 0; i < ROUNDS + 2; i++)
    for (const [e, env] of Object.entries(ENVS) as Array<[keyof typeof ENVS, NodeJS.ProcessEnv]>)
      for (const [v, args] of Object.entries(VARIANTS) as Array<[Variant, string[] | null]>) {
        if (!args) continue;
        const own = v === 'node' ? {} : v === 'plain' ? plainEnv : linedeskEnv;
        const { ms, cpuMs } = once(args, { ...env, ...own, NODE_COMPILE_CACHE: cacheDir(v) });
        if (i >= 2) {
          times[e][v].push(ms);
          cpu[e][v].push(cpuMs);
        }
      }
} finally {
  sb.child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}

const m = (e: keyof typeof ENVS, v: Variant) => median(times[e][v]);
const f1 = (n: number) => n.toFixed(1);
const ratio = (e: keyof typeof ENVS, v: Variant) => m(e, v) / m(e, 'node');
const check = (ok: boolean) => (ok ? 'met' : '**MISSED**');
// CPU as a mean: a tick is 10 ms, so a median of them would be a multiple of 10.
const cpuMean = (e: keyof typeof ENVS, v: Variant) =>
  cpu[e][v].reduce((a, b) => a + b, 0) / Math.max(1, cpu[e][v].length);
const row = (label: string, v: Variant, budget = '') => [
  label,
  `${f1(m('ca', v))} ms (${ratio('ca', v).toFixed(2)}×); CPU ${f1(cpuMean('ca', v))} ms`,
  `${f1(m('noCa', v))} ms (${ratio('noCa', v).toFixed(2)}×); CPU ${f1(cpuMean('noCa', v))} ms`,
  budget,
];
const rows = [
  row('`node -e 0` (the yardstick)', 'node'),
  row(
    '`linedesk account --json` (2,000 lines: the account and 6 counts at once, then the expired count and its checks: 5 round trips in turn, 20 requests)',
    'account',
    `≤ ${budgets.accountVsNode}× node -e 0: ${check(ratio('ca', 'account') <= budgets.accountVsNode!)}`,
  ),
  row(
    `a plain client making the same requests (bench/plain-account.mjs); \`account --json\` ÷ it: ${(m('ca', 'account') / m('ca', 'plain')).toFixed(2)}× (${(m('noCa', 'account') / m('noCa', 'plain')).toFixed(2)}× not set)`,
    'plain',
  ),
  row('`linedesk lines --json --limit 1` (one request)', 'oneRequest'),
  row('`linedesk --version`', 'version'),
  ...(BEFORE
    ? [
        row(`\`account --json\`, ${process.env.BENCH_BEFORE_LABEL ?? BEFORE}`, 'before'),
        row(`\`lines --json --limit 1\`, ${process.env.BENCH_BEFORE_LABEL ?? BEFORE}`, 'beforeOne'),
      ]
    : []),
];
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )} at the end: medians of ${ROUNDS} rounds, every variant once a round (warm compile cache); CPU is the process's (user + system, all threads), the mean over the rounds.`,
  '',
  '| launch | NODE_EXTRA_CA_CERTS set (÷ node -e 0) | not set (÷ node -e 0) | budget (bench/budgets.json) |',
  '|---|---:|---:|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
console.log(table);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:startup', table);
process.exit(0);

// npm run bench:sandbox — the sandbox at 100,000 lines beside a bare node:http server, same run.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { type LoadResult, load, replaceSection, spawnBenchSandbox, spawnJson } from './lib';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const N = Number(process.env.BENCH_REQUESTS ?? 2000);
const fmt = (n: number, d = 1) => n.toFixed(d);

console.error(`seeding ${LINES} lines…`);
const t0 = performance.now();
const sb = await spawnBenchSandbox(LINES, ['--credits', '1000000000']);
console.error(`sandbox ready in ${fmt((performance.now() - t0) / 1000)} s`);
const bare = await spawnJson<{ baseUrl: string }>(process.execPath, ['bench/bare-server.mjs']);
const h = { 'x-api-key': sb.info.accounts[0]!.apiKey };

interface Row {
  readonly latency: LoadResult; // one connection: what a single user waits
  readonly throughput: LoadResult; // four connections: what the server sustains
}
const results: Row[] = [];
const loadAtStart = os.loadavg();
/** The yardstick, measured between scenarios (the machine is shared): its medians are the baseline. */
const bareRuns: LoadResult[] = [];
const bareRun = async () => {
  bareRuns.push(await load('bare', bare.info.baseUrl, {}, () => ({ path: '/' }), 500, 4));
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const run = async (name: string, next: Parameters<typeof load>[3], n = N, base = sb.info.baseUrl) => {
  await load(name, base, h, next, Math.min(200, n)); // warm-up
  const latency = await load(name, base, h, next, n, 1);
  const throughput = await load(name, base, h, next, n, 4);
  results.push({ latency, throughput });
  await bareRun();
  const errors = latency.errors + throughput.errors;
  console.error(
    `${name}: p50 ${fmt(latency.p50, 2)} ms p99 ${fmt(latency.p99, 2)} ms; ${fmt(throughput.rps, 0)} req/s${errors ? ` (${errors} errors)` : ''}`,
  );
  return { latency, throughput };
};

/** Offsets walk the first `depth` results (wrapping within the result set, so every page has lines). */
const hits = async (extra: string) => {
  const res = await fetch(`${sb.info.baseUrl}/v1/lines/all?limit=1${extra}`, { headers: h });
  return ((await res.json()) as { totalHits: number }).totalHits;
};
const pages = async (limit: number, extra = '', depth = 200) => {
  const span = Math.max(limit, Math.min(depth, await hits(extra)) - limit);
  return (i: number) => ({ path: `/v1/lines/all?limit=${limit}&offset=${(i * limit) % span}${extra}` });
};
/** Pages all over the view, from its last full page (offset 99,980 of 100,000 at limit 20) down. */
const deepPages = async (limit: number, extra = '') => {
  const last = Math.max(0, (await hits(extra)) - limit);
  const count = Math.floor(last / limit) + 1;
  return (i: number) => ({
    path: `/v1/lines/all?limit=${limit}&offset=${last - ((i * 7919) % count) * limit}${extra}`,
  });
};

const bareR = await run('bare node:http GET', () => ({ path: '/' }), N, bare.info.baseUrl);
const me = await run('GET /v1/me', () => ({ path: '/v1/me' }));
// First pages (offset < 200 for limit 20, < 1,000 for limit 100): what a person pages through.
await run('list limit=20', await pages(20));
await run('list limit=100', await pages(100, '', 1000));
await run('list limit=20 search=smith', await pages(20, '&search=smith'));
// Searches as typed: a term never seen before each request, so no cache helps.
await run(
  'list limit=20 search, new 3-digit term each request (cold)',
  (i) => ({
    path: `/v1/lines/all?limit=20&search=${i % 10}${Math.floor(i / 10) % 10}${Math.floor(i / 100) % 10}`,
  }),
  400,
);
const sample = (
  (await (await fetch(`${sb.info.baseUrl}/v1/lines/all?limit=100`, { headers: h })).json()) as {
    lines: Array<{ username: string }>;
  }
).lines.map((l) => l.username);
const letterTerms = [
  ...new Set(
    sample.flatMap((u) => [u.slice(0, 3), u.slice(2, 5), u.slice(4, 7)]).filter((t) => /^[a-z]{3}$/.test(t)),
  ),
];
await run(
  'list limit=20 search, new 3-letter term each request (cold)',
  (i) => ({ path: `/v1/lines/all?limit=20&search=${letterTerms[i % letterTerms.length]}` }),
  Math.min(400, letterTerms.length),
);
await run(
  'list limit=20 search, new 2-character term each request (cold)',
  (i) => ({ path: `/v1/lines/all?limit=20&search=${(i % 90) + 10}` }),
  90,
);
await run('list limit=20 status=expiring', await pages(20, '&status=expiring'));
await run('list limit=20 type=trial status=active', await pages(20, '&type=trial&status=active'));
await run('list limit=20 orderBy=exp_date desc', await pages(20, '&orderBy=exp_date&orderType=desc'));
await run('list limit=100 orderBy=exp_date', await pages(100, '&orderBy=exp_date', 1000));
// Deep pages: anywhere in the view, down to its last page.
for (const order of ['id', 'username', 'exp_date', 'enabled'])
  await run(`deep: list limit=20 orderBy=${order}`, await deepPages(20, `&orderBy=${order}`));
await run(
  'deep: list limit=20 orderBy=exp_date desc',
  await deepPages(20, '&orderBy=exp_date&orderType=desc'),
);
await run('deep: list limit=100', await deepPages(100));
await run('deep: list limit=20 status=active', await deepPages(20, '&status=active'));
await run(
  'deep: list limit=20 status=suspended orderBy=username',
  await deepPages(20, '&status=suspended&orderBy=username'),
);
await run(
  'deep: list limit=20 type=premium orderBy=exp_date',
  await deepPages(20, '&type=premium&orderBy=exp_date'),
);
await run(
  'deep: list limit=100 type=trial orderBy=enabled desc',
  await deepPages(100, '&type=trial&orderBy=enabled&orderType=desc'),
);
await run('deep: list limit=20 search=son', await deepPages(20, '&search=son'));
await run(
  'deep: list limit=20 search=an orderBy=username',
  await deepPages(20, '&search=an&orderBy=username'),
);
await run(
  'POST /v1/lines (create)',
  () => ({ method: 'POST', path: '/v1/lines', body: '{"duration":1}' }),
  1000,
);
sb.child.kill('SIGTERM');

// The WAL of a file database under a long run of writes: sampled while they run, then once they pause.
const WAL_LINES = Number(process.env.BENCH_WAL_LINES ?? 10_000);
const WAL_WRITES = Number(process.env.BENCH_WAL_WRITES ?? 20_000);
const dir = mkdtempSync(join(os.tmpdir(), 'ld-bench-wal-'));
const file = join(dir, 'sandbox.db');
const walSize = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
console.error(`WAL: seeding ${WAL_LINES} lines into ${file}…`);
const fsb = await spawnJson<{ baseUrl: string; accounts: Array<{ apiKey: string }> }>(process.execPath, [
  'dist/linedesk.js',
  ...[
    'sandbox',
    '--json',
    '--port',
    '0',
    '--db',
    file,
    '--lines',
    String(WAL_LINES),
    '--credits',
    '1000000000',
  ],
]);
const fh = { 'x-api-key': fsb.info.accounts[0]!.apiKey };
const afterSeed = walSize();
const extendIds = (
  (await (
    await fetch(`${fsb.info.baseUrl}/v1/lines/all?limit=100&type=premium`, { headers: fh })
  ).json()) as {
    lines: Array<{ id: string }>;
  }
).lines.map((l) => l.id);
let walMax = 0;
const sampler = setInterval(() => {
  walMax = Math.max(walMax, walSize());
}, 10);
const writes = await load(
  `${WAL_WRITES.toLocaleString('en')} writes (creates and extends, 4 conns) on a file database`,
  fsb.info.baseUrl,
  fh,
  (i) =>
    i % 2
      ? { method: 'POST', path: '/v1/lines', body: '{"duration":1}' }
      : {
          method: 'PUT',
          path: '/v1/lines/extend',
          body: JSON.stringify({ id: extendIds[(i / 2) % 100], duration: 1 }),
        },
  WAL_WRITES,
  4,
);
clearInterval(sampler);
const atEnd = walSize();
const t1 = performance.now();
while (walSize() > 0 && performance.now() - t1 < 10_000) await new Promise((r) => setTimeout(r, 50));
const paused = walSize();
const pauseMs = performance.now() - t1;
fsb.child.kill('SIGTERM');
await new Promise((r) => fsb.child.once('exit', r));
const closed = walSize();
rmSync(dir, { recursive: true, force: true });
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
console.error(
  `WAL: after seed ${mb(afterSeed)}, largest during writes ${mb(walMax)}, at the last write ${mb(atEnd)}, ${fmt(pauseMs / 1000)} s later ${mb(paused)}, after exit ${mb(closed)}; ${fmt(writes.rps, 0)} writes/s, ${writes.errors} errors`,
);
bare.child.kill('SIGTERM');
const loadAtEnd = os.loadavg();

const bareRps = median(bareRuns.map((r) => r.rps));
const lists = results.filter((r) => r.latency.name.startsWith('list'));
const deep = results.filter((r) => r.latency.name.startsWith('deep'));
const deepP99 = Math.max(...deep.map((r) => r.latency.p99));
const listP99 = Math.max(...lists.map((r) => r.latency.p99));
const meRatio = me.throughput.rps / bareRps;
const load1 = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
const WAL_BOUND = 1024 * 1024;
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${LINES.toLocaleString('en')} lines; ${N} requests per row and connection count after 200 warm-up (cold-search rows: one per term). Load average (1/5/15 min) ${load1(loadAtStart)} at the start, ${load1(loadAtEnd)} at the end. Bare yardstick: median of ${bareRuns.length} runs between the rows, ${fmt(bareRps, 0)} req/s (first run: p50 ${fmt(bareR.latency.p50, 2)} ms).`,
  '',
  '| scenario | p50 ms (1 conn) | p99 ms (1 conn) | req/s (4 conns) | req/s vs bare |',
  '|---|---:|---:|---:|---:|',
  ...results.map(
    ({ latency: l, throughput: t }) =>
      `| ${l.name} | ${fmt(l.p50, 2)} | ${fmt(l.p99, 2)} | ${fmt(t.rps, 0)} | ${fmt(t.rps / bareRps, 2)}× |`,
  ),
  '',
  `WAL of a file database (${WAL_LINES.toLocaleString('en')} lines seeded), ${writes.name}: ${fmt(writes.rps, 0)} writes/s (p50 ${fmt(writes.p50, 2)} ms, p99 ${fmt(writes.p99, 2)} ms at 4 conns, ${writes.errors} errors). ` +
    `WAL after the seed ${mb(afterSeed)}; largest while writing ${mb(walMax)}; at the last write ${mb(atEnd)}; ${fmt(pauseMs / 1000)} s after ${mb(paused)}; after exit ${mb(closed)}.`,
  '',
  `Targets: list p99 ≤ 20 ms → worst list p99 ${fmt(listP99, 2)} ms: **${listP99 <= 20 ? 'met' : 'MISSED'}**. ` +
    `Deep pages p99 ≤ 5 ms → worst ${fmt(deepP99, 2)} ms: **${deepP99 <= 5 ? 'met' : 'MISSED'}**. ` +
    `/v1/me ≥ 0.5× bare throughput → ${fmt(meRatio, 2)}×: **${meRatio >= 0.5 ? 'met' : 'MISSED'}**. ` +
    `WAL once writes pause ≤ 1 MB → ${mb(paused)}: **${paused <= WAL_BOUND ? 'met' : 'MISSED'}**.`,
].join('\n');
console.log(table);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:sandbox', table);

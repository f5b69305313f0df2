// npm run bench:sandbox — the sandbox at 100,000 lines beside a bare node:http server, same run.
import os from 'node:os';
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
const run = async (name: string, next: Parameters<typeof load>[3], n = N, base = sb.info.baseUrl) => {
  await load(name, base, h, next, Math.min(200, n)); // warm-up
  const latency = await load(name, base, h, next, n, 1);
  const throughput = await load(name, base, h, next, n, 4);
  results.push({ latency, throughput });
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

const bareR = await run('bare node:http GET', () => ({ path: '/' }), N, bare.info.baseUrl);
const me = await run('GET /v1/me', () => ({ path: '/v1/me' }));
// First pages (offset < 200 for limit 20, < 1,000 for limit 100): what a person pages through.
await run('list limit=20', await pages(20));
await run('list limit=100', await pages(100, '', 1000));
await run('list limit=20 search=smith', await pages(20, '&search=smith'));
await run(
  'list limit=20 search, new term each request (cold count)',
  (i) => ({
    path: `/v1/lines/all?limit=20&search=${i % 10}${Math.floor(i / 10) % 10}${Math.floor(i / 100)}`,
  }),
  400,
);
await run('list limit=20 status=expiring', await pages(20, '&status=expiring'));
await run('list limit=20 type=trial status=active', await pages(20, '&type=trial&status=active'));
await run('list limit=20 orderBy=exp_date desc', await pages(20, '&orderBy=exp_date&orderType=desc'));
await run('list limit=100 orderBy=exp_date', await pages(100, '&orderBy=exp_date', 1000));
// Deep pages: offsets up to 5,000 into the results.
await run('deep: list limit=20 (offset ≤ 5,000)', await pages(20, '', 5000));
await run('deep: list limit=20 search=smith (offset ≤ 5,000)', await pages(20, '&search=smith', 5000));
await run('deep: list limit=20 status=expiring (offset ≤ 5,000)', await pages(20, '&status=expiring', 5000));
await run(
  'POST /v1/lines (create)',
  () => ({ method: 'POST', path: '/v1/lines', body: '{"duration":1}' }),
  1000,
);

sb.child.kill('SIGTERM');
bare.child.kill('SIGTERM');

const lists = results.filter((r) => r.latency.name.startsWith('list'));
const deep = results.filter((r) => r.latency.name.startsWith('deep'));
const deepP99 = Math.max(...deep.map((r) => r.latency.p99));
const listP99 = Math.max(...lists.map((r) => r.latency.p99));
const meRatio = me.throughput.rps / bareR.throughput.rps;
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${LINES.toLocaleString('en')} lines; ${N} requests per row and connection count after 200 warm-up.`,
  '',
  '| scenario | p50 ms (1 conn) | p99 ms (1 conn) | req/s (4 conns) | req/s vs bare |',
  '|---|---:|---:|---:|---:|',
  ...results.map(
    ({ latency: l, throughput: t }) =>
      `| ${l.name} | ${fmt(l.p50, 2)} | ${fmt(l.p99, 2)} | ${fmt(t.rps, 0)} | ${fmt(t.rps / bareR.throughput.rps, 2)}× |`,
  ),
  '',
  `Targets: list p99 ≤ 20 ms → worst list p99 ${fmt(listP99, 2)} ms: **${listP99 <= 20 ? 'met' : 'MISSED'}**. ` +
    `Deep pages: worst p99 ${fmt(deepP99, 2)} ms: **${deepP99 <= 20 ? 'met' : 'MISSED'}**. ` +
    `/v1/me ≥ 0.5× bare throughput → ${fmt(meRatio, 2)}×: **${meRatio >= 0.5 ? 'met' : 'MISSED'}**.`,
].join('\n');
console.log(table);
if (process.env.BENCH_WRITE !== '0') replaceSection('docs/PERFORMANCE.md', 'bench:sandbox', table);

// `BENCH_CHAIN=1 npm run bench:lines`: the plain client's requests alone (bench/plain-lines.mjs
// without its JSON.parse, its NDJSON or its writes: the next offset read from the reply's text). The
// floor of any client that asks for each page once the one before it was answered, however much of
// its own work it overlaps with the server's: the server's time and the HTTP exchange. Prints the
// line count (the bench checks it) on stdout, never the lines.
// node:http as bench/plain-lines.mjs takes it (why: there).
const http = process.getBuiltinModule('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (path) =>
  new Promise((resolve, reject) => {
    const req = http.get(
      `${process.env.BASE}${path}`,
      { agent, headers: { 'x-api-key': process.env.KEY } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('latin1');
          const next = /"nextOffset":\s*(null|\d+)/.exec(text)?.[1];
          const count = /"totalReturns":\s*(\d+)/.exec(text)?.[1];
          resolve({
            next: next === undefined || next === 'null' ? null : Number(next),
            count: Number(count),
          });
        });
      },
    );
    req.on('error', reject);
  });
let lines = 0;
for (let offset = 0; offset !== null; ) {
  const page = await get(`/v1/lines/all?limit=100&offset=${offset}`);
  lines += page.count;
  offset = page.next;
}
agent.destroy();
process.stdout.write('\n'.repeat(lines));

// The yardstick of `npm run bench:lines`: a plain client that lists every line, sequential pages of
// 100 over one keep-alive connection, printing NDJSON. BASE and KEY from the environment.
// node:http from process.getBuiltinModule, not `import`: an ES import of a built-in makes Node build
// its ES facade, reading every export (node:http's load Node's internal fetch: 40–70 ms measured),
// which no plain client written as CommonJS pays and linedesk does not either.
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
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      },
    );
    req.on('error', reject);
  });
for (let offset = 0; offset !== null; ) {
  const page = await get(`/v1/lines/all?limit=100&offset=${offset}`);
  process.stdout.write(page.lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  offset = page.nextOffset;
}
agent.destroy();

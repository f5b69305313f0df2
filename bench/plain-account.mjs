// A yardstick of `npm run bench:startup`: a plain client making what `linedesk account --json` makes
// against the bench's sandbox: the account and six counts at once, then the expired count's ten
// requests in six rounds (the ends and the middle at once, four halvings of one line each, then the
// window left as a page with a line at each side, and the two ends read again for the final check:
// services/expired-count.ts), printing the summary as JSON: 17 requests in 7 rounds, with none of
// linedesk's reading, checking, logging or files. BASE and KEY from the environment. node:http as
// linedesk takes it (bench/plain-lines.mjs says why).
const http = process.getBuiltinModule('node:http');

const agent = new http.Agent({ keepAlive: true });
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
const count = async (q) => (await get(`/v1/lines/all?limit=1${q}`)).totalHits;
const [account, all, active, suspended, expiring, premium, trial] = await Promise.all([
  get('/v1/me'),
  count(''),
  count('&status=active'),
  count('&status=suspended'),
  count('&status=expiring'),
  count('&type=premium'),
  count('&type=trial'),
]);
const now = Date.now();
const byExpiry = (offset, limit) =>
  get(`/v1/lines/all?status=all&type=all&orderBy=exp_date&orderType=asc&offset=${offset}&limit=${limit}`);
const expired = (page) => page.lines.map((l) => l.exp_date !== null && Date.parse(l.exp_date) < now);
// [a, b): the first line still running is in it.
let [a, b] = [0, all];
const [, , middle] = await Promise.all([byExpiry(0, 1), byExpiry(all - 1, 1), byExpiry(all >> 1, 1)]);
if (expired(middle)[0]) a = (all >> 1) + 1;
else b = all >> 1;
// Halved until a page holds [a, b) and a line at each side (two lines fewer than a page of 100).
while (b - a > 98) {
  const m = (a + b) >> 1;
  if (expired(await byExpiry(m, 1))[0]) a = m + 1;
  else b = m;
}
// [a, b) with the line at each side it has, and the ends of the list where the window holds neither.
const [from, to] = [a > 0 ? a - 1 : a, b < all ? b + 1 : b];
const [page] = await Promise.all([
  byExpiry(from, to - from),
  ...(a > 0 ? [byExpiry(0, 1)] : []),
  ...(b < all ? [byExpiry(all - 1, 1)] : []),
]);
const first = expired(page)
  .slice(a - from, b - from)
  .indexOf(false);
process.stdout.write(
  `${JSON.stringify({ account, counts: { all, active, suspended, expiring, premium, trial, expired: first < 0 ? b : a + first } }, null, 2)}\n`,
);
agent.destroy();

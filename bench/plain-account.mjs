// A yardstick of `npm run bench:startup`: a plain client making what `linedesk account --json` makes
// against the bench's sandbox: the account and six counts at once, then the expired count
// (services/expired-count.ts): the list's two ends with the first round of one-line probes, rounds of
// probes sent together until the window left is at most 98 lines (up to four a round, as few as reach
// it in as few rounds: 2,000 lines take two rounds of four), then that window as a page with a line at
// each side, and the two ends read again after it for the final check; printing the summary as JSON:
// 20 requests in 5 rounds at 2,000 lines, with none of linedesk's reading, checking, logging or
// files. A status other than 200, or a list end without an expiry (a shape this client does not
// follow), ends it with an error. BASE and KEY from the environment. node:http as linedesk takes it
// (bench/plain-lines.mjs says why).
const http = process.getBuiltinModule('node:http');

const agent = new http.Agent({ keepAlive: true });
const get = (path) =>
  new Promise((resolve, reject) => {
    const req = http.get(
      `${process.env.BASE}${path}`,
      { agent, headers: { 'x-api-key': process.env.KEY, accept: 'application/json' } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode}`));
          else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        });
      },
    );
    req.on('error', reject);
  });
// The list's query as linedesk writes it: every parameter, in its order.
const list = (offset, limit, status, type, orderBy) =>
  get(
    `/v1/lines/all?offset=${offset}&limit=${limit}&status=${status}&type=${type}&orderBy=${orderBy}&orderType=asc`,
  );
const count = async (status, type) => (await list(0, 1, status, type, 'id')).totalHits;
const [account, all, active, suspended, expiring, premium, trial] = await Promise.all([
  get('/v1/me'),
  count('all', 'all'),
  count('active', 'all'),
  count('suspended', 'all'),
  count('expiring', 'all'),
  count('all', 'premium'),
  count('all', 'trial'),
]);
const now = Date.now();
const byExpiry = (offset, limit) => list(offset, limit, 'all', 'all', 'exp_date');
const dated = (page) => {
  if (page.lines.some((l) => l.exp_date === null))
    throw new Error('a line without an expiry: not followed here');
  return page.lines.map((l) => Date.parse(l.exp_date) <= now);
};
// The rounds of probes: services/expired-count.ts's probesFor and probePlaces.
const SPAN = 98;
const widest = (w, k) => Math.ceil((w - k) / (k + 1));
const roundsOf = (w, k) => {
  let r = 0;
  for (; w > SPAN; r++) w = widest(w, k);
  return r;
};
const probesFor = (w) => {
  let k = 1;
  while (roundsOf(w, k) > roundsOf(w, 4)) k++;
  return k;
};
const places = (a, b, k) => {
  const rest = b - a - k;
  const [base, extra] = [Math.floor(rest / (k + 1)), rest % (k + 1)];
  const at = [];
  for (let i = 0, m = a; i < k; i++) {
    m += base + (i < extra ? 1 : 0);
    at.push(m++);
  }
  return at;
};
// [a, b): the first line still running is in it (or at b).
let [a, b] = [0, all];
const narrow = (at, pages) => {
  for (let i = 0; i < at.length; i++) {
    if (dated(pages[i])[0]) a = at[i] + 1;
    else {
      b = at[i];
      break;
    }
  }
};
let at = all > SPAN ? places(0, all, probesFor(all)) : [];
// The probes leave first, then the ends, as linedesk sends them.
const probed = await Promise.all([...at.map((m) => byExpiry(m, 1)), byExpiry(0, 1), byExpiry(all - 1, 1)]);
probed.slice(-2).forEach(dated);
narrow(at, probed);
while (b - a > SPAN) {
  at = places(a, b, probesFor(b - a));
  narrow(at, await Promise.all(at.map((m) => byExpiry(m, 1))));
}
let expired = a;
if (a < b) {
  // [a, b) with the line at each side it has, and the ends of the list where the window holds neither.
  const [from, to] = [a > 0 ? a - 1 : a, b < all ? b + 1 : b];
  const page = await byExpiry(from, to - from);
  const turn = dated(page)
    .slice(a - from, b - from)
    .indexOf(false);
  expired = turn < 0 ? b : a + turn;
  // The ends the page does not hold, read after it.
  await Promise.all([...(a > 0 ? [byExpiry(0, 1)] : []), ...(b < all ? [byExpiry(all - 1, 1)] : [])]);
}
// The probes found the turn: the ends and the two lines at it, read again.
else
  await Promise.all([
    ...(a > 0 ? [byExpiry(0, 1)] : []),
    ...(a < all ? [byExpiry(all - 1, 1)] : []),
    ...(a > 0 ? [byExpiry(a - 1, 1)] : []),
    ...(a < all ? [byExpiry(a, 1)] : []),
  ]);
process.stdout.write(
  `${JSON.stringify({ account, counts: { all, active, suspended, expiring, premium, trial, expired } }, null, 2)}\n`,
);
agent.destroy();

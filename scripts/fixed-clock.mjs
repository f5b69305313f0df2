// Loaded with `node --import` by `npm run screenshots`: the app's clock starts at LINEDESK_CLOCK (an
// ISO time) and runs on from there, so the seeded sandbox's dates and every "in 3 days" on the
// screenshots are the same on every run. Timers are untouched: only what Date reads is shifted.
const start = Date.parse(process.env.LINEDESK_CLOCK ?? '');
if (Number.isFinite(start)) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const offset = start - realNow();
  const now = () => realNow() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
    // `Date()` called as a function gives the time as a string.
    apply: () => new RealDate(now()).toString(),
    get: (target, key) => (key === 'now' ? now : Reflect.get(target, key)),
  });
}

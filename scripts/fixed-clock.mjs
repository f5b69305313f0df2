// Loaded with `node --import` by `npm run screenshots`: the app's clock starts at LINEDESK_CLOCK (an
// ISO time) and runs on from there, so the seeded sandbox's dates and every "in 3 days" on the
// screenshots are the same on every run. Timers are untouched: only what Date reads is shifted.
const start = Date.parse(process.env.LINEDESK_CLOCK ?? '');
if (Number.isFinite(start)) {
  const RealDate = Date;
  const offset = start - RealDate.now();
  const now = () => RealDate.now() + offset;
  class FixedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = FixedDate;
}

/**
 * A stale balance (its read failed, or is made again after failing) judges nothing: a single change
 * says the balance is not known now and that the service refuses what it does not cover (as the bulk
 * preview does), neither blocked nor allowed by the stale number; the header's runway, worked out
 * from that number, is not shown; and a reply that states the balance makes it "as of" that reply.
 */
import { expect, it } from 'vitest';
import { RULES } from '../../src/domain/change-rules';
import { memoryJournal } from '../../src/services/changes/journal';
import { selectCurrentLine } from '../../src/store/lines-slice';
import { selectBalanceShown } from '../../src/store/selectors';
import { renderApp } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { gated } from '../helpers/gated';
import { resize } from '../helpers/resize';
import { books, sandbox } from '../helpers/sandbox';

/** The app on a proxied sandbox whose /v1/me read can fail (`proxy`) or wait (`hold`). */
async function start(opts: { credits?: number }, deps: Parameters<typeof renderApp>[1] = {}) {
  const env = await sandbox({ lines: 40, ...opts });
  const { proxy, client: proxied } = await proxiedClient(env.sb.baseUrl);
  const me = gated(proxied, 'me', false);
  const app = await renderApp({}, { client: me.client, journal: memoryJournal(), ...deps }, env);
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && app.store.getState().account.status === 'ready');
  /** A read of the balance fails: the balance shown is stale from then on. */
  const failRead = async () => {
    proxy.set({ rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }] });
    await app.store.getState().loadAccount();
    proxy.set({});
    expect(selectBalanceShown(app.store.getState())?.stale).toBe(true);
  };
  /** A read again that waits until `release`: while it is on its way, the balance is still stale. */
  const holdRead = () => {
    me.hold();
    const reading = app.store.getState().loadAccount();
    return async () => {
      me.open();
      await reading;
    };
  };
  return { ...app, failRead, holdRead };
}

it('a single change with a stale balance too low for it: not refused by it, said unknown; the service refuses it', async () => {
  // The store's clock stands still (moved only by `confirm`): an Enter before the dialog was read
  // stays early however long a loaded machine takes between the frame and the key.
  const t0 = Date.now();
  const app = await start({ credits: 2 }, { now: () => t0 });
  await app.failRead();
  while (selectCurrentLine(app.store.getState())?.is_trial) await app.press('lines.down');
  await app.press('line.extend');
  await app.waitFrame((f) => f.includes('estimate from package prices') && f.includes('Balance'));
  const f = app.frame();
  expect(f).not.toContain(RULES.balanceTooLow);
  expect(f).toMatch(/Balance\s+not known now/);
  expect(f).toMatch(/the service\s+refuses/);
  expect(f).not.toMatch(/→ [−-]?[\d,.]+ credits? after/);
  // The confirm gate holds: an Enter before the dialog has been read confirms nothing.
  await app.press('action.confirm');
  expect(app.store.getState().action?.phase).toBe('review');
  // On purpose: sent, and the service refuses what the balance does not cover; nothing is charged.
  await app.confirm('action.confirm');
  await app.waitFrame(() => app.store.getState().action?.phase === 'failed');
  expect(books(app.sb).ledger).toHaveLength(0);
  expect(books(app.sb).balance).toBe(2);
});

it('the header hides the runway worked out from a stale balance while it is read again', async () => {
  const app = await start({ credits: 3 }, { runwayAtStart: true });
  resize(app, 160, 24); // room for the stale balance and the runway both
  const header = () => app.frame().split('\n')[0]!;
  const covers = /covers (\d+ days?|less than a day)/;
  await app.waitFrame(() => covers.test(header()));
  await app.failRead();
  const done = app.holdRead();
  await app.waitFrame(() => header().includes('stale') && app.store.getState().account.status === 'loading');
  expect(header()).not.toMatch(covers);
  await done();
  await app.waitFrame(() => covers.test(header()) && !header().includes('stale'));
});

it('a reply stating the same balance makes it the service’s word as of that reply', async () => {
  let t = 1_900_000_000_000;
  const app = await start({}, { now: () => t });
  const s = () => app.store.getState();
  const credits = selectBalanceShown(s())!.credits;
  const before = s().balanceAt;
  t += 5 * 60_000;
  s().balanceSeen(credits);
  expect(s().balanceAt).toBeGreaterThan(before!);
  // After a failed read, a reply that states the balance makes it current again.
  await app.failRead();
  t += 5 * 60_000;
  s().balanceSeen(credits);
  expect(selectBalanceShown(s())).toMatchObject({ credits, stale: false, asOf: s().balanceAt });
  expect(s().balanceAt).toBe(app.clock.now());
});

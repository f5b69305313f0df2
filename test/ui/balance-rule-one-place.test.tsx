/**
 * How a stale balance judges is said in one place (present/balance.ts `balanceToJudge`, which
 * store/selectors.ts `selectBalanceToJudge` applies): every place that judges by the balance follows
 * it, none restates it. Here that rule is swapped for one that judges a stale balance too: the header's
 * runway, the change dialog's "after", the account screen's runway and the renewals summary then
 * follow it; a place with a rule of its own would not.
 */
import { expect, it, vi } from 'vitest';
import type { BalanceShown } from '../../src/present/balance';
import { memoryJournal } from '../../src/services/changes/journal';
import { selectCurrentLine } from '../../src/store/lines-slice';
import { selectBalanceShown } from '../../src/store/selectors';
import { renderApp } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { resize } from '../helpers/resize';
import { sandbox } from '../helpers/sandbox';

vi.mock('../../src/present/balance', async (original) => {
  const real = await original<typeof import('../../src/present/balance')>();
  // A rule that judges by the balance shown, stale or not.
  return { ...real, balanceToJudge: (b: BalanceShown | undefined) => b?.credits };
});

it('with a rule that judges a stale balance, the header, the change dialog, the account screen and renewals judge it (they ask that rule)', async () => {
  const env = await sandbox({ lines: 40, credits: 3 });
  const { proxy, client: proxied } = await proxiedClient(env.sb.baseUrl);
  // A read of the balance that waits (`release`): made after a failed one, the balance stays stale
  // and the header has room for the runway (no error beside it).
  let held: Promise<void> | null = null;
  let release = () => {};
  const client = {
    ...proxied,
    me: async (...a: Parameters<typeof proxied.me>) => {
      if (held) await held;
      return proxied.me(...a);
    },
  };
  const app = await renderApp({}, { client, journal: memoryJournal(), runwayAtStart: true }, env);
  const s = () => app.store.getState();
  resize(app, 160, 24); // room for the stale balance and the runway both
  const header = () => app.frame().split('\n')[0]!;
  const covers = /covers (\d+ days?|less than a day)/;
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && covers.test(header()));
  proxy.set({ rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }] });
  await s().loadAccount();
  proxy.set({});
  held = new Promise<void>((r) => {
    release = r;
  });
  const reading = s().loadAccount();
  expect(selectBalanceShown(s())?.stale).toBe(true);
  await app.waitFrame(() => header().includes('stale') && s().account.status === 'loading');
  expect(header()).toMatch(covers);
  while (selectCurrentLine(s())?.is_trial) await app.press('lines.down');
  await app.press('line.extend');
  await app.waitFrame((f) => f.includes('estimate from package prices') && /Balance\s/.test(f));
  expect(app.frame()).toMatch(/Balance\s+3 \(stale, as of \d\d:\d\d\) → [−-]?[\d,.]+ after/);
  expect(app.frame()).not.toContain('not known now');
  // The account screen's runway and the renewals summary ask it too (store/selectors.ts `isUnjudged`):
  // judged by it, never "not known now" or "stale: read it again" from a `stale` of their own.
  await app.press('app.back');
  await app.waitFrame((f) => !f.includes('estimate from package prices'));
  await app.press('nav.account');
  await app.waitFrame((f) => /Runway\s+\S/.test(f) && !f.includes('reading…'));
  expect(app.frame()).toMatch(/Runway\s+covers/);
  expect(app.frame()).not.toContain('not known now');
  await app.press('nav.renewals');
  const summary = () =>
    app
      .frame()
      .split('\n')
      .find((r) => r.includes('to renew for')) ?? '';
  await app.waitFrame(() => s().renewals.status === 'ready' && summary() !== '');
  expect(summary()).toMatch(/the balance (\(3\) )?covers/);
  expect(summary()).not.toContain('stale');
  expect(selectBalanceShown(s())?.stale).toBe(true);
  held = null;
  release();
  await reading;
});

/**
 * The renewals view judges its plan by the balance every change is judged against
 * (store/selectors.ts `selectBalanceToJudge`): with a stale balance it says neither that the balance
 * covers the renewals nor how many, but that the balance must be read again, naming the key that
 * does (by the keys rule), and judges again once a read succeeds.
 */
import { expect, it } from 'vitest';
import { keyNamed } from '../../src/commands/keymap';
import { memoryJournal } from '../../src/services/changes/journal';
import { selectRenewalsPlan } from '../../src/store/renewals-slice';
import { selectBalanceShown } from '../../src/store/selectors';
import { renderApp } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';

async function onRenewals(credits: number) {
  const env = await sandbox({ lines: 40, credits });
  const { proxy, client } = await proxiedClient(env.sb.baseUrl);
  const app = await renderApp({}, { client, journal: memoryJournal() }, env);
  const s = () => app.store.getState();
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && s().account.status === 'ready');
  await app.press('nav.renewals');
  await app.waitFrame((f) => s().renewals.status === 'ready' && /to renew for 1 month/.test(f));
  expect(selectRenewalsPlan(s())!.renewable).toBeGreaterThan(0);
  const summary = () =>
    app
      .frame()
      .split('\n')
      .find((r) => r.includes('to renew for')) ?? '';
  const failRead = async () => {
    proxy.set({ rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }] });
    await s().loadAccount();
    proxy.set({});
    expect(selectBalanceShown(s())?.stale).toBe(true);
  };
  return { app, s, summary, failRead };
}

it('a stale balance too low for the plan: not said to cover any, said to be read again (with its key)', async () => {
  const { app, s, summary, failRead } = await onRenewals(1);
  await app.waitFrame(() => /the balance \(1\) covers \d+/.test(summary()));
  await failRead();
  await app.waitFrame(() => summary().includes('stale'));
  const key = keyNamed(s(), 'app.refresh');
  expect(key).not.toBeNull();
  expect(summary()).not.toMatch(/covers/);
  expect(summary()).toContain(`the balance is stale: ${key} reads it again`);
  // Nothing is worked out from it: the plan covers none while the balance is not the service's word.
  expect(selectRenewalsPlan(s())!.covered).toBe(0);
  // A read that succeeds judges again.
  await s().refreshScreen();
  await app.waitFrame(() => /the balance \(1\) covers \d+/.test(summary()));
  expect(summary()).not.toContain('stale');
});

it('a stale balance that covered the plan: "covers all" is not said from it', async () => {
  const { app, summary, failRead } = await onRenewals(100_000);
  await app.waitFrame(() => summary().includes('the balance covers all'));
  await failRead();
  await app.waitFrame(() => summary().includes('stale'));
  expect(summary()).not.toMatch(/covers/);
  expect(summary()).toContain('the balance is stale');
});

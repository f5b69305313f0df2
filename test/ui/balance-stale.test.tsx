/**
 * A balance that is no longer the service's word (its read failed, or is being made again after a
 * failure) is shown as stale, with since when, in every place that shows it: the header and the
 * change dialog say the same, and neither says it as current (the dialog: "not known now"). Read
 * again, it is current.
 */
import { expect, it } from 'vitest';
import { credits } from '../../src/domain/format';
import { clockText } from '../../src/present/balance';
import { memoryJournal } from '../../src/services/changes/journal';
import { selectCurrentLine } from '../../src/store/lines-slice';
import { selectBalanceShown } from '../../src/store/selectors';
import { renderApp } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { gated } from '../helpers/gated';
import { sandbox } from '../helpers/sandbox';

it('the header and the change dialog show a balance whose read failed as stale, as of its last read, until it is read', async () => {
  const env = await sandbox({ lines: 40 });
  const { proxy, client: proxied } = await proxiedClient(env.sb.baseUrl);
  // A read that waits: the read again after the failure is on its way while the screen is looked at.
  const me = gated(proxied, 'me', false);
  const app = await renderApp({}, { client: me.client, journal: memoryJournal() }, env);
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && app.store.getState().account.status === 'ready');
  const header = () => app.frame().split('\n')[0]!;
  const balance = credits(selectBalanceShown(app.store.getState())!.credits);
  const asOf = app.store.getState().balanceAt!;
  expect(header()).toContain(balance);
  expect(header()).not.toContain('stale');

  proxy.set({ rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }] });
  await app.store.getState().loadAccount();
  const stale = `${balance} (stale, as of ${clockText(asOf)})`;
  await app.waitFrame(() => header().includes(stale));
  // Read again after the failure, the read on its way: still stale (not the service's word yet).
  me.hold();
  proxy.set({});
  const reading = app.store.getState().loadAccount();
  expect(app.store.getState().account.status).toBe('loading');
  // A premium line under the cursor (a trial is not extended).
  while (selectCurrentLine(app.store.getState())?.is_trial) await app.press('lines.down');
  await app.press('line.extend');
  await app.waitFrame((f) => f.includes('Balance') && f.includes('estimate from package prices'));
  expect(header()).toContain(stale);
  const row = app
    .frame()
    .split('\n')
    .find((r) => r.includes('Balance'))!;
  // Not the service's word: not known now, said with the last one and since when; nothing "after".
  expect(row).toContain(`not known now (${balance}, stale, as of ${clockText(asOf)})`);
  expect(row).not.toContain('after');

  me.open();
  await reading;
  await app.waitFrame((f) => !header().includes('stale') && /Balance\s+[\d,.]+ now →/.test(f));
});

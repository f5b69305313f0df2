/**
 * The single-change dialog arms its confirm again when it goes from refused to startable (keys/
 * confirm-gate.ts `startable`): a balance read again that now covers the change is a new thing to
 * read, so an Enter a moment after the new frame (typed for the refusal before) does not charge.
 */
import { expect, it } from 'vitest';
import { BURST_GAP_MS, CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { books, sandbox } from '../helpers/sandbox';

it('an Enter a moment after a read again made the change affordable does not charge', async () => {
  const env = await sandbox({ lines: 40, credits: 2 });
  // The store's clock stands still but for `advance`: the re-armed Enter stays early however long a
  // loaded machine takes between the frame and the key.
  const t0 = Date.now();
  const app = await renderApp({}, { journal: memoryJournal(), now: () => t0 }, env);
  const s = () => app.store.getState();
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && s().account.status === 'ready');
  await app.press('lines.filterType'); // premium
  await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
  await app.press('line.extend');
  await app.waitFrame((f) => f.includes('estimate from package prices') && f.includes('Balance too low'));
  app.clock.advance(CONFIRM_ARM_MS * 2);
  // Topped up elsewhere; the read again succeeds: the change is affordable now, the frame says so.
  env.sb.repo.db.prepare("UPDATE accounts SET credits = 1000 WHERE email = 'demo@sandbox.linedesk'").run();
  await s().loadAccount();
  await app.waitFrame((f) => !f.includes('Balance too low') && /Balance\s+1,?000 now/.test(f));
  app.clock.advance(BURST_GAP_MS + 10);
  await app.press('action.confirm');
  await app.waitFrame((f) => f.includes('press Enter again to confirm') || s().action?.phase !== 'review');
  expect(books(env.sb).ledger).toHaveLength(0);
  expect(s().action?.phase).toBe('review');
  // Read, the same Enter later confirms: the change is sent.
  app.clock.advance(CONFIRM_ARM_MS * 2);
  await app.press('action.confirm');
  await app.waitFrame(() => s().action?.phase !== 'review');
  await app.waitFrame(() => books(env.sb).ledger.length === 1);
});

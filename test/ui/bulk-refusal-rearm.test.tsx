/**
 * The bulk preview with every line (not "only the affordable ones") arms its confirm again when the
 * job goes from refused to startable (keys/confirm-gate.ts `startable`): a balance read again that now
 * covers the whole job is a new thing to read, so an Enter a moment after the new frame starts
 * nothing. The affordable-only case: test/ui/bulk-affordable-balance-enter.test.tsx.
 */
import { expect, it } from 'vitest';
import { affordability } from '../../src/domain/bulk';
import { BURST_GAP_MS, CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { bulkBlocker } from '../../src/store/bulk-slice';
import { loaded } from '../../src/store/types';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { books } from '../helpers/sandbox';

const setCredits = (app: Awaited<ReturnType<typeof renderApp>>, credits: number) =>
  app.sb.repo.db
    .prepare("UPDATE accounts SET credits = ? WHERE email = 'demo@sandbox.linedesk'")
    .run(credits);

it('an Enter a moment after a read again made the whole job affordable starts nothing', async () => {
  const app = await renderApp({ lines: 40 }, { now: () => 1_900_000_000_000 });
  const s = () => app.store.getState();
  await openBulkPreview(app, { mark: 'page', premium: true });
  await app.waitFrame((f) => f.includes('marked lines by ‹ 1 month ›') && !s().bulk?.quoting);
  const all = affordability(s().bulk!.job.lines, Number.MAX_SAFE_INTEGER).total;
  setCredits(app, Math.floor(all / 2));
  await s().loadAccount();
  await app.waitFrame(() => bulkBlocker(s().bulk!, loaded(s().account)?.credits) !== null);
  const refused = app.frame();
  app.clock.advance(CONFIRM_ARM_MS * 2);
  setCredits(app, all);
  await s().loadAccount();
  await app.waitFrame((f) => f !== refused && bulkBlocker(s().bulk!, all) === null);
  app.clock.advance(BURST_GAP_MS + 10);
  await app.press('bulk.start');
  await app.waitFrame((f) => f.includes('press Enter again to confirm') || s().bulk?.phase !== 'preview');
  expect(s().bulk!.phase).toBe('preview');
  expect(books(app.sb).ledger).toHaveLength(0);
});

it('typing the delete count is no change to read: an Enter after the last digit starts the job', async () => {
  const app = await renderApp({ lines: 40 }, { now: () => 1_900_000_000_000 });
  const s = () => app.store.getState();
  await openBulkPreview(app, { mark: 'page', op: 'line.delete' });
  await app.waitFrame((f) => /Type \d+ to confirm/.test(f));
  const count = String(s().bulk!.job.lines.filter((l) => l.state === 'pending').length);
  app.clock.advance(CONFIRM_ARM_MS * 2);
  for (const digit of count) {
    app.clock.advance(BURST_GAP_MS + 10);
    await app.type(digit);
  }
  await app.waitFrame(() => s().bulk?.typed === count && bulkBlocker(s().bulk!, undefined) === null);
  // Each digit a key of its own, not a burst; the preview read long before: Enter starts it.
  app.clock.advance(BURST_GAP_MS + 10);
  await app.press('bulk.start');
  await app.waitFrame(() => s().bulk?.phase !== 'preview' || app.frame().includes('press Enter again'));
  expect(s().bulk?.phase).not.toBe('preview');
});

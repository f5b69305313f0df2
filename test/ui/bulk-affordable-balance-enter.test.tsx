/**
 * "Only the affordable ones" in the bulk preview: the total it shows and charges follows the balance.
 * A balance read anew (the one the preview asks for as it opens, or any refresh) changes what Enter
 * spends: an Enter a moment after the new total is drawn starts nothing; on purpose after it, the
 * job charges that total.
 */
import { describe, expect, it } from 'vitest';
import { affordability } from '../../src/domain/bulk';
import { BURST_GAP_MS, CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { loaded } from '../../src/store/types';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { books } from '../helpers/sandbox';

const setCredits = (app: Awaited<ReturnType<typeof renderApp>>, credits: number) =>
  app.sb.repo.db
    .prepare("UPDATE accounts SET credits = ? WHERE email = 'demo@sandbox.linedesk'")
    .run(credits);

describe('an Enter after the balance changed what the affordable ones cost', () => {
  it('before the new total has been on screen, it starts nothing; on purpose after it, it charges that total', async () => {
    const app = await renderApp({ lines: 40 }, { now: () => 1_900_000_000_000 });
    const s = () => app.store.getState();
    await openBulkPreview(app, { mark: 'page', premium: true }); // premium: every line can be extended
    await app.waitFrame((f) => f.includes('marked lines by ‹ 1 month ›'));
    const all = affordability(s().bulk!.job.lines, Number.MAX_SAFE_INTEGER).total;
    // A balance for about half the lines, only the affordable ones, read long enough to confirm.
    setCredits(app, Math.floor(all / 2));
    await s().loadAccount();
    await app.press('bulk.affordable');
    await app.waitFrame(
      (f) => f.includes('ONLY THE AFFORDABLE ONES') && f.includes(`balance ${Math.floor(all / 2)}`),
    );
    const half = affordability(s().bulk!.job.lines, Math.floor(all / 2)).spent;
    expect(half).toBeLessThan(all);
    app.clock.advance(CONFIRM_ARM_MS * 2);
    // The balance read anew pays for every line: the affordable ones are all of them now.
    setCredits(app, all);
    await s().loadAccount();
    expect(loaded(s().account)!.credits).toBe(all);
    await app.waitFrame((f) => f.includes(`Total ${all} credits`));
    app.clock.advance(BURST_GAP_MS + 10);
    await app.press('bulk.start');
    await app.waitFrame((f) => f.includes('press Enter again to confirm'));
    expect(s().bulk!.phase).toBe('preview');
    expect(books(app.sb).ledger).toHaveLength(0);
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    expect(books(app.sb).spent).toBe(all);
  });
});

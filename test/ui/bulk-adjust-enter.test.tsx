/**
 * The bulk preview's months key and Enter: a confirm key is acted on only by what was on screen when
 * it arrived. An Enter pressed after a months key, before the dialog with the new total has been
 * read, never starts the job; pressed on purpose after it, the job charges the total shown.
 */
import { describe, expect, it } from 'vitest';
import { pendingCounts } from '../../src/domain/bulk';
import { BURST_GAP_MS, CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { books } from '../helpers/sandbox';

describe('an Enter after a months key in the bulk preview', () => {
  it('before the new total has been on screen, it starts nothing; on purpose after it, it charges that total', async () => {
    const app = await renderApp({ lines: 40 }, { now: () => 1_900_000_000_000 });
    await openBulkPreview(app, { mark: 'page', premium: true }); // premium: every line can be extended
    await app.waitFrame((f) => f.includes('marked lines by ‹ 1 month ›'));
    const one = pendingCounts(app.store.getState().bulk!.job.lines).costSum;
    // The first total read long enough to confirm it; then more months, and Enter a moment later.
    app.clock.advance(CONFIRM_ARM_MS * 2);
    await app.press('bulk.increase');
    app.clock.advance(BURST_GAP_MS + 10);
    await app.press('bulk.start');
    await app.waitFrame((f) => f.includes('press Enter again to confirm'));
    const b = app.store.getState().bulk!;
    expect(b.phase).toBe('preview');
    expect(b.job.months).toBe(3);
    expect(books(app.sb).ledger).toHaveLength(0);
    const three = pendingCounts(b.job.lines).costSum;
    expect(three).toBeGreaterThan(one);
    await app.waitFrame(
      (f) => f.includes('marked lines by ‹ 3 months ›') && f.includes(`Total ${three} credits`),
    );
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    expect(books(app.sb).spent).toBe(three);
  });
});

/**
 * The bulk dialog's scroll keys: offered only when they move what is in view (none with no line in
 * view), the window never scrolls past its end (a key back up moves it at once), and a page is the
 * lines in view as drawn (less one kept in sight).
 */
import { describe, expect, it } from 'vitest';
import { command } from '../../src/commands/keymap';
import { memoryJournal } from '../../src/services/changes/journal';
import { footerHints } from '../../src/ui/layout/Footer';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { appliedJournal } from '../helpers/journal';

describe('the bulk dialog’s scroll keys', () => {
  it('are not offered when no line is in view (a delete preview too small to show its total)', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await openBulkPreview(app, { mark: 'all', op: 'line.delete', size: [60, 14] });
    await app.waitFrame((f) => f.includes('Too small') && f.includes('Delete 40 marked lines'));
    // No line is drawn: a scroll key would move nothing the screen shows.
    expect(app.store.getState().drawn.bulk?.rows).toBe(0);
    expect(footerHints(app.store.getState()).join(' ')).not.toMatch(/PgDn|PgUp|scroll/);
    for (const id of ['bulk.pageDown', 'bulk.pageUp', 'bulk.down', 'bulk.up'] as const)
      expect(command(id).disabled?.(app.store.getState()), id).toBeTruthy();
    await app.press('bulk.pageDown');
    expect(app.store.getState().scroll.bulk).toBe(0);
  });

  it('stop at the end: paged past it, one key up moves the window up at once', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await openBulkPreview(app, { mark: 'all', premium: true });
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    const total = app.store.getState().bulk!.job.lines.length;
    const inView = app.store.getState().drawn.bulk!.rows;
    expect(inView).toBeGreaterThan(0);
    expect(inView).toBeLessThan(total);
    const end = `${total - inView + 1}–${total} of ${total}`;
    // Far more pages down than the job has: the window stops at its end, and so does the offset.
    for (let i = 0; i < total; i++) await app.press('bulk.pageDown');
    await app.waitFrame((f) => f.includes(end));
    expect(app.store.getState().scroll.bulk).toBe(total - inView);
    await app.press('bulk.up');
    await app.waitFrame((f) => f.includes(`${total - inView}–${total - 1} of ${total}`));
    await app.press('bulk.down');
    await app.press('bulk.down');
    await app.waitFrame((f) => f.includes(end));
    // A page is the lines in view less one kept in sight (not a fixed ten).
    const page = inView - 1;
    expect(page).not.toBe(10);
    const from = total - inView - page;
    expect(from).toBeGreaterThan(0);
    await app.press('bulk.pageUp');
    await app.waitFrame((f) => f.includes(`${from + 1}–${from + inView} of ${total}`));
  });
});

describe('the journal’s scroll keys', () => {
  it('stop at the end (shared with help and the bulk dialog): one key up moves the window at once', async () => {
    const journal = appliedJournal(30);
    const app = await renderApp({ lines: 40 }, { journal });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('nav.journal');
    await app.waitFrame((f) => /Journal — .* 30 entries · 1–\d+ of 30/.test(f));
    const inView = app.store.getState().drawn.journal!.rows;
    expect(inView).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) await app.press('journal.pageDown');
    await app.waitFrame((f) => f.includes(`${31 - inView}–30 of 30`) && f.includes('user000'));
    await app.press('journal.up');
    await app.waitFrame((f) => f.includes(`${30 - inView}–29 of 30`));
  });
});

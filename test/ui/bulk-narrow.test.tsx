/**
 * The bulk dialog at the smallest terminal the layout is drawn in (60 columns, 14 rows): the keys it
 * offers are the keys that work, what it says when it cannot be started is read whole, and its frame
 * stays within the terminal (its bottom border drawn).
 */
import { describe, expect, it } from 'vitest';
import { pendingCounts } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { footerHints } from '../../src/ui/layout/Footer';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { DEMO_KEY } from '../helpers/sandbox';

type App = Awaited<ReturnType<typeof renderApp>>;

/** The dialog's rows between its borders, without them, as one text (a wrapped sentence joined). */
const dialogText = (frame: string) =>
  frame
    .split('\n')
    .filter((r) => r.startsWith('│'))
    .map((r) => r.slice(1).replace(/│\s*$/, '').trim())
    .join(' ');

const preview = (app: App, columns: number, rows: number, op: 'line.delete' | 'line.extend') =>
  openBulkPreview(app, { mark: 'all', op, size: [columns, rows] });

describe('the bulk dialog at 60 columns', () => {
  // MIN_COLUMNS: the dialogs work from 60 columns. What must show whole to start (what to type, the
  // paid time a delete throws away, the total and balance) wraps onto as many rows as it takes.
  it('a delete can be started at 60×24: what to type and the paid time lost are said whole, wrapped', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await preview(app, 60, 24, 'line.delete');
    await app.waitFrame((f) => f.includes('Delete 40 marked lines') && f.includes('permanently'));
    const count = String(pendingCounts(app.store.getState().bulk!.job.lines).pending);
    await app.type(count);
    await app.waitFrame(() => footerHints(app.store.getState()).join('  ').includes('Enter start'));
    const text = dialogText(app.frame());
    expect(text).toContain(`Deletes permanently. Type the number of lines to confirm: ${count}▏`);
    expect(text).toMatch(/No refund: \d+ of \d+ lines still have paid time/);
    expect(text).not.toMatch(/Too (narrow|small)/);
    await app.confirm('bulk.start');
    await app.waitFrame(() => app.store.getState().bulk?.phase !== 'preview');
  });

  it('an extend with only the affordable ones on can be started at 60×24', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await preview(app, 60, 24, 'line.extend');
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    await app.press('bulk.affordable');
    await app.waitFrame((f) => dialogText(f).includes('ONLY THE AFFORDABLE ONES'));
    await app.waitFrame(() => footerHints(app.store.getState()).join('  ').includes('Enter start'));
    expect(dialogText(app.frame())).not.toMatch(/Too (narrow|small)/);
    await app.confirm('bulk.start');
    await app.waitFrame(() => app.store.getState().bulk?.phase !== 'preview');
  });

  it('a delete too small to show what must be read is refused whole, offers no Enter, and Enter starts nothing', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await preview(app, 60, 14, 'line.delete');
    await app.waitFrame((f) => f.includes('Delete 40 marked lines') && f.includes('Too small'));
    await app.type(String(pendingCounts(app.store.getState().bulk!.job.lines).pending));
    await app.waitFrame((f) => f.includes('Too small'));
    expect(dialogText(app.frame())).toMatch(
      /Too small to show what to type to confirm: the terminal needs \d+ more rows?/,
    );
    expect(footerHints(app.store.getState()).join('  ')).not.toMatch(/Enter/);
    expect(app.frame().split('\n').at(-1)).not.toMatch(/Enter/);
    await app.confirm('bulk.start');
    expect(app.store.getState().bulk?.phase).toBe('preview');
  });

  it('a preview at 60×14 keeps its frame within the terminal (its bottom border drawn)', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await preview(app, 60, 14, 'line.extend');
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    await app.waitFrame((f) => f.includes('lines 1–'));
    const rows = app.frame().split('\n');
    expect(rows.filter((r) => r.startsWith('╭'))).toHaveLength(1);
    expect(
      rows.filter((r) => r.startsWith('╰')),
      app.frame(),
    ).toHaveLength(1);
    expect(rows.length).toBeLessThanOrEqual(13);
  });
});

describe('the bulk start', () => {
  it('is offered only when it starts the job: not before the count to confirm a delete is typed', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('lines.markPage');
    await app.waitFrame((f) => /\b[1-9]\d* marked/.test(f));
    await app.press('line.delete');
    await app.waitFrame((f) => f.includes('Type the number of lines to confirm'));
    expect(footerHints(app.store.getState()).join('  ')).not.toMatch(/Enter/);
    await app.type(String(pendingCounts(app.store.getState().bulk!.job.lines).pending));
    await app.waitFrame(() => footerHints(app.store.getState()).join('  ').includes('Enter start'));
  });
});

describe('the bulk dialog after the start, at 60×14', () => {
  it('keeps its frame within the terminal when the done view says more (the lines go first)', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await preview(app, 60, 14, 'line.extend');
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    await app.waitFrame(() => footerHints(app.store.getState()).join('  ').includes('Enter start'));
    await app.confirm('bulk.start');
    await app.waitFrame(() => app.store.getState().bulk?.phase === 'done');
    // Another client spends meanwhile: the done view says the balance moved besides the job.
    const account = app.sb.repo.accountForKey(DEMO_KEY)!;
    app.sb.repo.charge(account.id, 7, 7);
    await app.store.getState().loadAccount();
    await app.waitFrame((f) => dialogText(f).includes('besides what this job proved it spent'));
    const rows = app.frame().split('\n');
    expect(rows.length).toBeLessThanOrEqual(13);
    expect(
      rows.filter((r) => r.startsWith('╰')),
      app.frame(),
    ).toHaveLength(1);
    expect(dialogText(app.frame())).toContain('Esc closes');
    expect(dialogText(app.frame())).toMatch(/Finished\./);
  });
});

/**
 * A bulk job's reasons are read whole: a line not sent because it changed since it was marked says
 * what changed, that nothing was charged and what to do, on rows below it when its column is too
 * narrow (at 80×24 it kept "not sent: ch…"), and the window still fits the dialog.
 */
import { describe, expect, it } from 'vitest';
import { command } from '../../src/commands/keymap';
import { loaded } from '../../src/domain/load';
import { windowOfRows } from '../../src/domain/scroll';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { resize } from '../helpers/resize';

/** The dialog's text without its borders, its rows joined: a sentence wrapped over rows reads whole. */
const prose = (frame: string) =>
  frame
    .split('\n')
    .map((r) =>
      r
        .replace(/^\s*[│|]/, '')
        .replace(/[│|]\s*$/, '')
        .trim(),
    )
    .join(' ')
    .replace(/\s+/g, ' ');

describe('the bulk dialog’s reasons', () => {
  it('at 80×24, lines changed elsewhere since they were marked say why whole, and what to do', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 80, 24);
    await app.press('lines.filterType'); // premium
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    const [a, b] = loaded(app.store.getState().lines)!.lines;
    await app.press('lines.markPage');
    await app.waitFrame((f) => /\d+ marked/.test(f));
    // Another client changes two of them after they were marked.
    app.sb.repo.db
      .prepare(
        'UPDATE lines SET connections = CASE WHEN connections < 6 THEN connections + 1 ELSE 1 END WHERE id = ?',
      )
      .run(a!.id);
    app.sb.repo.db.prepare('UPDATE lines SET exp_date = exp_date + 2592000 WHERE id = ?').run(b!.id);
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('marked lines by'));
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    const text = prose(app.frame());
    expect(text).toMatch(/its connections went from \d to \d\); nothing charged: review it and run again/);
    expect(text).toContain('someone may have extended it already');
    expect(app.frame().split('\n').length).toBeLessThanOrEqual(24);
    // The counts row goes on to its rate rather than being cut.
    expect(text).toMatch(/\d+ credits spent · \d+\.\d\/s/);
    // What Esc does is said once in the dialog, on its last row (not also after "Finished.").
    expect(app.frame().match(/Esc closes/g)).toHaveLength(1);
  });
});

describe('the bulk preview’s reasons', () => {
  it('at 80×24, a trial line marked with others says whole why it is skipped; the frame fits', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await openBulkPreview(app, { mark: 'page', size: [80, 24] });
    expect(loaded(app.store.getState().lines)!.lines.some((l) => l.is_trial)).toBe(true);
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    await app.waitFrame((f) => f.includes('Trial lines cannot be extended'));
    expect(app.frame().split('\n').length).toBeLessThanOrEqual(24);
  });
});

describe('the bulk dialog’s scroll keys', () => {
  it('are offered only when some lines are not in view', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('lines.filterType'); // premium
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    const [a, b] = loaded(app.store.getState().lines)!.lines;
    app.store.getState().markLines([a!, b!]);
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('Extend 2 marked lines') && f.includes('Total'));
    expect(app.frame()).not.toContain('PgDn');
    expect(command('bulk.pageDown').disabled?.(app.store.getState())).toBeTruthy();
    await app.press('bulk.close');
    await app.waitFrame((f) => !f.includes('marked lines by'));
    await app.press('lines.markAll');
    await app.waitFrame((f) => /\b[2-9]\d marked/.test(f));
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('PgDn'));
    expect(command('bulk.pageDown').disabled?.(app.store.getState())).toBeFalsy();
  });
});

describe('the bulk dialog’s last lines', () => {
  it('at 80×24, paged to the end, the last line is in view though a reason above it wraps', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await openBulkPreview(app, { mark: 'all', size: [80, 24] });
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    // The preview says whole how many marked lines are not on the page (it was cut at "hidde…").
    expect(prose(app.frame())).toMatch(
      /of the \d+ marked lines are not on the page in view \(other pages, or hidden by the filter or search\)\./,
    );
    const lines = app.store.getState().bulk!.job.lines;
    // A trial's reason ("Trial lines cannot be extended") takes a row of its own in the columns as
    // laid out, not at the widest: the window at the end was measured one row short of the last line.
    for (let i = 0; i < lines.length; i++) await app.press('bulk.pageDown');
    await app.waitFrame((f) => f.includes(`of ${lines.length} (`));
    expect(app.frame()).toContain(`–${lines.length} of ${lines.length}`);
    expect(app.frame()).toContain(lines.at(-1)!.username);
  });
});

describe('a window onto items of several rows', () => {
  it('holds as many items as the rows do, one at least; the offset is clamped so the last ones fill it', () => {
    const h = [1, 3, 1, 1, 2];
    const height = (i: number) => h[i]!;
    expect(windowOfRows(5, 8, 0, height)).toEqual({ start: 0, end: 5, position: '' });
    expect(windowOfRows(5, 4, 0, height)).toMatchObject({ start: 0, end: 2, position: '1–2 of 5' });
    expect(windowOfRows(5, 4, 4, height)).toMatchObject({ start: 2, end: 5 });
    expect(windowOfRows(5, 2, 1, height)).toMatchObject({ start: 1, end: 2 });
  });
});

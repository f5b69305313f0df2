/**
 * The bulk dialog's scroll keys, frame by frame: the footer names PgDn only on a frame that draws
 * lines some of which are not in view (their scroll note). The count of lines in view is the one
 * measured for the dialog and phase drawn: a new dialog does not take the last one's, and a job
 * started with a screen reader (no line said while it runs) does not keep the preview's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { resize } from '../helpers/resize';

type App = Awaited<ReturnType<typeof renderApp>>;

const plain = (f: string) => f.replace(/\u001b\[[0-9;]*m/g, '');
const NOTE = /lines \d+–\d+ of \d+ \(.*scroll\)/;

/** Every frame drawn since `from` whose footer (its last row) names the page-down key draws the note. */
function expectTruthfulFooters(app: App, from: number) {
  const pgDn = keyHintText('bulk.pageDown');
  for (const f of app.ui.frames.slice(from).map(plain)) {
    const footer = f.trimEnd().split('\n').at(-1) ?? '';
    if (footer.includes(pgDn))
      expect(f, 'a footer named the scroll keys with no line to scroll').toMatch(NOTE);
  }
}

afterEach(() => {
  delete process.env.INK_SCREEN_READER;
});

describe('the bulk dialog’s scroll keys on every frame', () => {
  it('a new dialog does not offer them with the count of the last one', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await openBulkPreview(app, { mark: 'page', premium: true, size: [200, 14] });
    // Some of the marked lines in view, not all: the scroll keys are offered.
    await app.waitFrame((f) => f.includes('marked lines by') && NOTE.test(f));
    await app.waitFrame((f) => (f.split('\n').at(-1) ?? '').includes(keyHintText('bulk.pageDown')));
    await app.press('bulk.close');
    await app.waitFrame((f) => !f.includes('marked lines by'));
    // Taller now: the next dialog shows every marked line, so there is nothing to scroll.
    resize(app, 200, 24);
    await app.waitFrame((f) => f.split('\n').length > 14);
    const from = app.ui.frames.length;
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    expect(app.frame()).not.toMatch(NOTE);
    expectTruthfulFooters(app, from);
  });

  it('a job started with a screen reader (no line said while it runs) does not offer them', async () => {
    process.env.INK_SCREEN_READER = 'true';
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await openBulkPreview(app, { mark: 'all' });
    await app.waitFrame((f) => /^pending, Username: /m.test(f) && NOTE.test(f));
    expect(app.store.getState().drawn.bulk?.rows).toBeGreaterThan(0);
    const from = app.ui.frames.length;
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    expect(app.ui.frames.slice(from).some((f) => plain(f).includes('Progress:'))).toBe(true);
    expectTruthfulFooters(app, from);
  });
});

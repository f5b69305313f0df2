/**
 * The journal's and help's scroll keys, frame by frame: the footer offers them only on a frame that
 * draws some of the list out of view. The count of rows in view is the one drawn for what the list
 * shows now (its filter; help's screen): a frame that first draws another filter, or help over
 * another screen, does not take the count of the last one (the store hears a count after the draw).
 */
import { describe, expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { appliedJournal } from '../helpers/journal';
import { resize } from '../helpers/resize';

type App = Awaited<ReturnType<typeof renderApp>>;

const plain = (f: string) => f.replace(/\u001b\[[0-9;]*m/g, '');
const footerOf = (f: string) => plain(f).trimEnd().split('\n').at(-1) ?? '';

/** Every frame since `from` whose footer offers `key` draws some of the list out of view (`more`). */
function expectTruthfulFooters(app: App, from: number, key: string, more: RegExp) {
  const frames = app.ui.frames.slice(from).map(plain);
  expect(frames.length).toBeGreaterThan(0);
  for (const f of frames)
    if (footerOf(f).includes(key))
      expect(f, `the footer offered ${key} with the whole list in view`).toMatch(more);
}

/** Three entries of this account, ten of another (one a minute from 2026-11-01). */
const twoAccounts = () => appliedJournal(13, (i) => (i < 3 ? 'sandbox:test' : 'sandbox:other'));

describe('the journal’s scroll keys', () => {
  it('every account shown: the first frame does not offer them on the count of the one account’s entries', async () => {
    const app = await renderApp({ lines: 40 }, { journal: twoAccounts() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 200, 40);
    await app.press('nav.journal');
    await app.waitFrame((f) => /Journal — .* 3 entries/.test(f));
    const pgDn = keyHintText('journal.pageDown');
    expect(footerOf(app.frame())).not.toContain(pgDn);
    const from = app.ui.frames.length;
    await app.press('journal.allAccounts');
    // Thirteen entries, every one in view: nothing to scroll.
    await app.waitFrame((f) => /Journal — every account .* 13 entries/.test(f) && f.includes('user012'));
    expect(app.frame()).not.toMatch(/ of 13/);
    expectTruthfulFooters(app, from, pgDn, / · 1–\d+ of 13/);
    expect(footerOf(app.frame())).not.toContain(pgDn);
    // Some out of view: offered.
    resize(app, 200, 14);
    await app.waitFrame((f) => / · 1–\d+ of 13/.test(f) && footerOf(f).includes(pgDn));
  });
});

describe('help’s scroll keys', () => {
  it('help over another screen: the first frame does not offer them on the count of the last help', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 200, 100);
    await app.press('nav.journal');
    await app.waitFrame((f) => f.includes('Journal —'));
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys — journal screen'));
    const pgDn = keyHintText('help.pageDown');
    expect(footerOf(app.frame())).not.toContain(pgDn);
    await app.press('help.close');
    await app.press('nav.lines');
    await app.waitFrame((f) => !f.includes('Journal —') && /\d+–\d+ of \d+/.test(f));
    const from = app.ui.frames.length;
    await app.press('app.help');
    // The lines screen's keys, more than the journal's, every one in view at 200×100.
    await app.waitFrame((f) => f.includes('Keys — lines screen'));
    expect(app.frame()).not.toMatch(/Keys — .* · \d+–\d+ of \d+/);
    expectTruthfulFooters(app, from, pgDn, /Keys — .* · \d+–\d+ of \d+, .*scroll/);
    expect(footerOf(app.frame())).not.toContain(pgDn);
    // Some out of view: offered, and named in the title, never before the footer offers them (the
    // first frame at this size still has the count of the last, every row in view).
    const resized = app.ui.frames.length;
    resize(app, 200, 30);
    await app.waitFrame((f) => /Keys — .* · 1–\d+ of \d+, .*scroll/.test(f) && footerOf(f).includes(pgDn));
    for (const f of app.ui.frames.slice(resized).map(plain))
      if (/Keys — .*, .*scroll/.test(f))
        expect(footerOf(f), 'the title named the scroll keys the footer does not offer').toContain(pgDn);
  });
});

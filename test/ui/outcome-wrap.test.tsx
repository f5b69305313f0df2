/**
 * A change's outcome is read whole: a message longer than the dialog's row (a line changed since it
 * was shown: what changed, that nothing was charged, what to do next) goes on as many rows as it
 * takes, never cut where the user learns what to do.
 */
import { describe, expect, it } from 'vitest';
import { loaded } from '../../src/domain/load';
import { FRESH_FOR_MS } from '../../src/services/changes/fresh-lines';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { books } from '../helpers/sandbox';

describe('the single change dialog’s outcome', () => {
  it('a line changed elsewhere since it was shown: the whole sentence, nothing charged, what to do', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('lines.filterType'); // premium
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    // Another client extends it; the page is more than a minute old when the extend is confirmed.
    app.sb.repo.db.prepare('UPDATE lines SET exp_date = exp_date + 2592000 WHERE id = ?').run(line.id);
    app.clock.advance(FRESH_FOR_MS + 1000);
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Not sent'));
    const text = app
      .frame()
      .split('\n')
      .map((r) =>
        r
          .replace(/^[│|]\s*/, '')
          .replace(/\s*[│|]\s*$/, '')
          .replace(/^Status\s+/, '')
          .trim(),
      )
      .join(' ');
    expect(text).toContain('someone may have extended it already');
    expect(text).toContain('nothing charged: review it and try again');
    expect(app.frame()).not.toContain('…');
    expect(books(app.sb).balance).toBe(1000);
  });
});

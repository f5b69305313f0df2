/**
 * In the ASCII glyph mode (a terminal whose locale is not UTF-8: app/ui-entry.tsx) the screens draw
 * the cursor with the glyph table's stand-in, never the UTF-8 `›` (ui/glyphs.ts `glyph('cursor')`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { selectScreen } from '../../src/store/view-stack';
import { type GlyphMode, glyphMode, setGlyphMode } from '../../src/ui/glyphs';
import { renderApp } from '../helpers/app';

let before: GlyphMode;
beforeEach(() => {
  before = glyphMode();
  setGlyphMode('ascii');
});
afterEach(() => setGlyphMode(before));

describe('the cursor in ASCII glyphs', () => {
  it('the marks screen draws it as ">"', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('of 40'));
    await app.press('lines.mark');
    await app.press('lines.down');
    await app.press('lines.mark');
    await app.waitFrame(() => app.store.getState().marked.size === 2);
    const [first] = [...app.store.getState().marked.values()];
    await app.press('lines.marks');
    await app.waitFrame(
      (f) => selectScreen(app.store.getState()).id === 'marks' && f.includes('Marked lines: 2'),
    );
    expect(app.frame()).toMatch(new RegExp(`^> +${first!.username}\\b`, 'm'));
    expect(app.frame()).not.toContain('›');
  });
});

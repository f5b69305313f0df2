/**
 * Cells as the terminal and Ink draw them: emoji shown as emoji outside U+1F300–1FAFF (⌚ ⚡ ✅ ❌ ⭐
 * 🀄), the enclosed ideographic supplement and the kana supplement are two cells wide. Counted as
 * one, a server name pushed every column after it and Ink cut the row's end. A kept flag is never cut
 * into loose tags.
 */
import { describe, expect, it } from 'vitest';
import { isTerminalSafe, sanitize } from '../../src/api/sanitize';
import { cellWidth, fitWidth, shownName } from '../../src/domain/format';

const ENGLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
const WIDE = ['\u231A', '\u26A1', '\u2705', '\u274C', '\u2B50', '\u{1F004}', '\u{1F201}', '\u{1B000}'];
/** The reference: the wide characters above two cells, every other one here one. */
const cells = (s: string) => [...s].reduce((n, c) => n + (WIDE.includes(c) ? 2 : 1), 0);

describe('cell width', () => {
  it.each(WIDE)('%s is two cells', (ch) => {
    expect(cellWidth(sanitize(ch))).toBe(2);
  });
  it('a text-presentation symbol stays one cell (☺ ✔ ↔); a flag of two regional indicators two', () => {
    for (const ch of ['\u263A', '\u2714', '\u2194']) expect(cellWidth(ch)).toBe(1);
    expect(cellWidth('\u{1F1EB}\u{1F1F7}')).toBe(2);
  });
  it('fitWidth of a server name with ⚡ and ✅ fills exactly its cells', () => {
    const name = sanitize('Promo\u26A1\u26A1\u26A1 line \u2705\u2705\u2705\u2705\u2705\u2705');
    for (const w of [5, 10, 16, 20, 30]) expect(cells(fitWidth(name, w))).toBe(w);
  });
});

describe('a kept flag', () => {
  it('shownName cuts before a flag, never inside its tags', () => {
    const name = sanitize(`${'a'.repeat(58)}${ENGLAND}zz`);
    expect(isTerminalSafe(name)).toBe(true);
    const shown = shownName(name);
    expect(isTerminalSafe(shown)).toBe(true);
    expect(shown).toBe(`${'a'.repeat(58)}…`);
  });
  it('fitWidth keeps a flag at the cut whole or leaves it out', () => {
    const name = sanitize(`abc${ENGLAND}def`);
    for (let w = 1; w <= 8; w++) expect(isTerminalSafe(fitWidth(name, w))).toBe(true);
  });
});

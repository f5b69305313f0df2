import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../src/domain/format';
import { asciiText, localeIsUtf8 } from '../../src/ui/glyphs';

describe('the glyph table (issue 23)', () => {
  it('the locale: LC_ALL, then LC_CTYPE, then LANG; the first set decides; none set is C', () => {
    expect(localeIsUtf8({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(localeIsUtf8({ LANG: 'de_DE.utf8' })).toBe(true);
    expect(localeIsUtf8({ LANG: 'C' })).toBe(false);
    expect(localeIsUtf8({})).toBe(false);
    expect(localeIsUtf8({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(localeIsUtf8({ LC_CTYPE: 'C.UTF-8', LANG: 'C' })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: '', LC_CTYPE: 'POSIX', LANG: 'en_US.UTF-8' })).toBe(false);
  });

  it('ASCII stand-ins keep every width, so the layout Ink measured holds', () => {
    const text = '╭─ Extend ─╮ › ● 1–24 of 240 · 3 credits… → ✓ ✗ [███░░] 名前 é';
    const out = asciiText(text);
    expect(out).toMatch(/^[\u0000-\u007e]*$/);
    expect(cellWidth(out)).toBe(cellWidth(text));
    expect(out.startsWith('+- Extend -+ > * 1-24 of 240 . 3 credits. > + x [###..]')).toBe(true);
  });

  it('the screen-reader mode hears a dot between parts as a pause (a comma), in the same width', () => {
    const text = 'Enter confirms · Esc back';
    const out = asciiText(text, true);
    expect(out).toBe('Enter confirms , Esc back');
    expect(cellWidth(out)).toBe(cellWidth(text));
    expect(asciiText(text)).toBe('Enter confirms . Esc back');
  });

  it("a flag the sanitizer keeps (England's) stands in by as many cells as it takes: two", () => {
    const flag = `\u{1F3F4}${[...'gbeng'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}\u{E007F}`;
    const text = `Team ${flag} ok`;
    expect(asciiText(text)).toBe('Team ?? ok');
    expect(cellWidth(asciiText(text))).toBe(cellWidth(text));
  });
});

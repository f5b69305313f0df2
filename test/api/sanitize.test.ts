import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Line } from '../../src/api/contract';
import { isTerminalSafe, PLACEHOLDER, sanitize, sanitizeMultiline } from '../../src/api/sanitize';

const ESC = '\u001b';
const corpus: Record<string, string> = {
  'OSC 0 window title': `${ESC}]0;pwned\u0007`,
  'OSC 8 hyperlink': `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`,
  'OSC 52 clipboard write': `${ESC}]52;c;cm0gLXJmIH4=\u0007`,
  'CSI 2J clear screen': `${ESC}[2J`,
  'cursor move': `${ESC}[10;10H`,
  'lone CR': 'good\rbad',
  'one-character CSI U+009B': '\u009B31mred',
  'RLO bidi override': 'abc\u202Efdp.exe',
  'zero-width space': 'a\u200Bb',
  BOM: '\uFEFFx',
  'line separator': 'a\u2028b',
};

describe('sanitize', () => {
  for (const [name, input] of Object.entries(corpus)) {
    it(`neutralises ${name}`, () => {
      const out = sanitize(input);
      expect(isTerminalSafe(out)).toBe(true);
      expect(out).toContain(PLACEHOLDER);
      expect(out).not.toContain(ESC);
    });
  }

  it('keeps ordinary text, accents and emoji untouched', () => {
    const text = 'Café Ünïcode 📺 ~user-1._x';
    expect(sanitize(text)).toBe(text);
  });

  it('keeps LF and TAB in multi-line text but not CR or ESC', () => {
    expect(sanitizeMultiline('a\nb\tc')).toBe('a\nb\tc');
    expect(sanitizeMultiline(`a\r${ESC}[2J`)).toBe(`a${PLACEHOLDER}${PLACEHOLDER}[2J`);
  });

  it('no forbidden code point survives, and sanitizing twice changes nothing (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        const once = sanitize(s);
        expect(isTerminalSafe(once)).toBe(true);
        expect(sanitize(once)).toBe(once);
        for (const ch of once) {
          const cp = ch.codePointAt(0)!;
          expect(cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('applies while parsing: a label from the server cannot reach the terminal raw', () => {
    const line = Line.parse({
      id: 'x',
      hostname: `h${ESC}]0;t\u0007`,
      username: 'user',
      password: 'pass',
      label: `${ESC}]52;c;Zm9v\u0007`,
      enabled: true,
      connections: 1,
      is_trial: false,
      exp_date: null,
      start_date: null,
      created_at: null,
    });
    expect(isTerminalSafe(line.label)).toBe(true);
    expect(isTerminalSafe(line.hostname!)).toBe(true);
  });
});

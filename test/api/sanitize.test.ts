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

  it('a string with no forbidden character is returned as it is, any other replaced as the rule says (property)', () => {
    // The rule itself, without the fast path's test first (issue 27).
    const RULE =
      /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF]/g;
    // Mostly printable ASCII (the fast path's case), with the characters at its edges and beyond.
    const unit = fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '\u0000',
          '\u0009',
          '\u000a',
          '\u000d',
          '\u001b',
          '\u001f',
          '\u007f',
          '\u0080',
          '\u009b',
          '\u009f',
          '\u00a0',
          'é',
          '\u061c',
          '\u200b',
          '\u2028',
          '\u202e',
          '\u2066',
          '\ufeff',
          '📺',
        ),
      },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }) },
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const s = units.join('');
        expect(sanitize(s)).toBe(s.replace(RULE, PLACEHOLDER));
      }),
      { numRuns: 2000 },
    );
    for (const c of ['\u0000', '\u001f', '\u007f', '\u009b'])
      expect(sanitize(`user${c}name`)).toBe(`user${PLACEHOLDER}name`);
  });

  describe('the same as before its fast path changed (issue 27)', () => {
    // The rule as the slow path applied it, and the fast path it had: printable ASCII as it is.
    const RULE =
      /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF]/g;
    const asBefore = (text: string) => {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x20 || c > 0x7e) return text.replace(RULE, PLACEHOLDER);
      }
      return text;
    };

    it('every code unit, alone and between others, lone surrogates included', () => {
      for (let c = 0; c <= 0xffff; c++) {
        const u = String.fromCharCode(c);
        for (const s of [u, `a${u}`, `${u}b`, `é${u}📺`])
          if (sanitize(s) !== asBefore(s))
            expect([c.toString(16), sanitize(s)]).toEqual([c.toString(16), asBefore(s)]);
      }
    });

    it('any string of code units or of full-unicode characters (property)', () => {
      const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
      const text = fc.oneof(
        fc.string({ unit: codeUnit, maxLength: 60 }),
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.string({
          unit: fc.oneof(codeUnit, fc.constantFrom('a', ' ', '~', '\u001b', '\ud83d', '\udcfa')),
          maxLength: 60,
        }),
      );
      fc.assert(
        fc.property(text, (s) => {
          expect(sanitize(s)).toBe(asBefore(s));
        }),
        { numRuns: 500 },
      );
    });
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

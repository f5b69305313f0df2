/**
 * A calendar moment is checked by arithmetic (issue 27: three dates a line, 100,000 lines a listing),
 * with the answer a Date made to read back gave: the same milliseconds, or null for a day the month
 * does not have and for years Date.UTC would read as 19xx.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalMs, parseDateText, utc } from '../../src/api/contract/dates';

/** The rule as it was: make the Date, read it back. */
function readBack(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
): number | null {
  if (mo < 0 || mo > 11 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const t = Date.UTC(y, mo, d, h, mi, s, ms);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo && back.getUTCDate() === d ? t : null;
}

describe('utc', () => {
  it('agrees with reading a Date back, over every month end, leap years and years below 100', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1900, 2000, 2024, 2100, 2400, 99, 100)),
        fc.integer({ min: -1, max: 12 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 999 }),
        (y, mo, d, h, mi, s, ms) => {
          expect(utc(y, mo, d, h, mi, s, ms)).toBe(readBack(y, mo, d, h, mi, s, ms));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('a date text with a day its month lacks is not a date', () => {
    expect(parseDateText('2023-02-29T00:00:00Z').ms).toBeNull();
    expect(parseDateText('2024-02-29T00:00:00Z').ms).toBe(Date.UTC(2024, 1, 29));
    expect(parseDateText('2100-02-29').ms).toBeNull();
    expect(parseDateText('0050-01-01').ms).toBeNull();
  });
});

describe('the canonical form, read without the regex', () => {
  it('gives what the ISO reading gives, for every millisecond and any moment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
        (t) => {
          const text = new Date(t).toISOString();
          // The same text with a space in front takes the general path (trimmed, then the regex).
          expect(parseDateText(text)).toEqual({ raw: text, ms: t });
          expect(parseDateText(` ${text}`).ms).toBe(t);
        },
      ),
      { numRuns: 5_000 },
    );
    for (let ms = 0; ms < 1000; ms++) {
      const text = `2027-06-02T09:46:43.${String(ms).padStart(3, '0')}Z`;
      expect(parseDateText(text).ms).toBe(parseDateText(` ${text}`).ms);
    }
  });

  it('a text of the canonical shape with any character changed: read as the general reader reads it, or left to it', () => {
    const anyChar = fc.oneof(
      fc.constantFrom(...'0123456789-T:.Z /', '\u0660', '\uff10'),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
        fc.array(fc.tuple(fc.nat({ max: 23 }), anyChar), { maxLength: 3 }),
        (t, edits) => {
          let text = new Date(t).toISOString();
          for (const [i, c] of edits) text = text.slice(0, i) + c + text.slice(i + 1);
          const fast = canonicalMs(text);
          // The general reader (trimmed, then the ISO regex) for the same text.
          const general = parseDateText(` ${text}`).ms;
          if (fast !== undefined) expect(fast).toBe(general);
          else expect(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(text)).toBe(false);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('a canonical-looking text that is not a moment is not a date; another form is read as before', () => {
    expect(parseDateText('2023-02-29T10:00:00.000Z').ms).toBeNull();
    expect(parseDateText('2023-13-01T10:00:00.000Z').ms).toBeNull();
    expect(parseDateText('2023-1a-01T10:00:00.000Z').ms).toBeNull();
    expect(parseDateText('2027-06-02T09:46:43Z').ms).toBe(Date.UTC(2027, 5, 2, 9, 46, 43));
  });
});

/**
 * parseServerDate reads the canonical ISO form without sanitizing it first (issue 27: three dates a
 * line): only because that reading checks every character. Whatever the text, the result is the one
 * sanitizing and then reading gives, so nothing unsanitized gets through.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDateText } from '../../src/api/contract/dates';
import { parseServerDate } from '../../src/api/contract/primitives';
import { isTerminalSafe, sanitize } from '../../src/api/sanitize';

const canonical = fc
  .integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 })
  .map((ms) => new Date(ms).toISOString())
  .filter((t) => t.length === 24);
/** A canonical text with one character put in place of another (or none). */
const nearCanonical = fc
  .tuple(
    canonical,
    fc.nat({ max: 23 }),
    fc.oneof(
      fc.constantFrom(
        '\u0000',
        '\u001b',
        '\u009b',
        '\u202e',
        '\u0660',
        '\uff10',
        '/',
        ' ',
        'Z',
        'T',
        '-',
        '9',
      ),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    fc.boolean(),
  )
  .map(([t, at, c, swap]) => (swap ? t.slice(0, at) + c + t.slice(at + 1) : t));

describe('parseServerDate', () => {
  it('is parseDateText(sanitize(text)), for canonical texts and any character put in them (property)', () => {
    fc.assert(
      fc.property(fc.oneof(nearCanonical, fc.string({ unit: 'binary', maxLength: 30 })), (t) => {
        const read = parseServerDate(t);
        expect(read).toStrictEqual(parseDateText(sanitize(t)));
        expect(isTerminalSafe(read.raw)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });
});

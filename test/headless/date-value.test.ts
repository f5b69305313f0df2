/**
 * dateValue keeps a date's own text when it is already what toISOString prints: the output must be
 * exactly what `new Date(ms).toISOString()` gave for every text a server may send.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDateText } from '../../src/api/contract/dates';
import { dateValue } from '../../src/headless/format';

const printedBefore = (text: string) => {
  const d = parseDateText(text);
  return d.ms === null ? d.raw : new Date(d.ms).toISOString();
};
const two = (n: number) => String(n).padStart(2, '0');

describe('dateValue', () => {
  it('prints what toISOString printed, for canonical and near-canonical texts', () => {
    const text = fc
      .record({
        y: fc.integer({ min: 0, max: 9999 }),
        mo: fc.integer({ min: 0, max: 13 }),
        d: fc.integer({ min: 0, max: 32 }),
        h: fc.integer({ min: 0, max: 24 }),
        mi: fc.integer({ min: 0, max: 60 }),
        s: fc.integer({ min: 0, max: 60 }),
        frac: fc.stringMatching(/^\.\d{1,9}$/),
        zone: fc.constantFrom('Z', '+01:00', '-0530', ''),
      })
      .map(
        (p) =>
          `${String(p.y).padStart(4, '0')}-${two(p.mo)}-${two(p.d)}T${two(p.h)}:${two(p.mi)}:${two(p.s)}${p.frac}${p.zone}`,
      );
    fc.assert(
      fc.property(text, (t) => {
        expect(dateValue(parseDateText(t))).toBe(printedBefore(t));
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        const t = new Date(ms).toISOString();
        expect(dateValue(parseDateText(t))).toBe(printedBefore(t));
      }),
      { numRuns: 20_000 },
    );
    // Milliseconds that a decimal fraction rounds down (".123" * 1000 is not always 123).
    for (let ms = 0; ms < 1000; ms++) {
      const t = `2026-05-01T10:20:30.${String(ms).padStart(3, '0')}Z`;
      expect(dateValue(parseDateText(t))).toBe(printedBefore(t));
    }
    expect(dateValue(null)).toBeNull();
    expect(dateValue(parseDateText('soon'))).toBe('soon');
  });
});

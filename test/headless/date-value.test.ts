/**
 * A date printed by a command: the server's text when it is exactly what toISOString prints for the
 * time it reads as, else toISOString of that time; the text as sent when it cannot be read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseServerDate } from '../../src/api/contract/primitives';
import { dateValue } from '../../src/headless/format';

const iso = fc
  .date({ min: new Date(Date.UTC(-50, 0, 1)), max: new Date(Date.UTC(10050, 0, 1)), noInvalidDate: true })
  .map((d) => d.toISOString());
const texts = fc.oneof(
  iso,
  // One character of a canonical text changed: another time, or not a date.
  fc.tuple(iso, fc.nat(), fc.constantFrom('0', '9', '3', 'x', ' ', '\u0660')).map(([t, i, c]) => {
    const at = i % t.length;
    return `${t.slice(0, at)}${c}${t.slice(at + 1)}`;
  }),
  fc.date({ noInvalidDate: true }).map((d) => d.toString()),
  fc.string(),
);

describe('dateValue', () => {
  it('property: the text when toISOString prints it for its time, else that time in ISO, else the text', () => {
    fc.assert(
      fc.property(texts, (t) => {
        const d = parseServerDate(t);
        if (d === null) return;
        const out = dateValue(d);
        if (d.ms === null) expect(out).toBe(d.raw);
        else expect(out).toBe(new Date(d.ms).toISOString());
      }),
      { numRuns: 3000 },
    );
  });
});

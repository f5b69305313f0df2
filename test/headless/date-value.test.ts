/**
 * A date printed by a command: the server's text when it is exactly what toISOString prints for the
 * time it reads as, else toISOString of that time; the text as sent when it cannot be read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IsoDate } from '../../src/api/contract/dates';
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

describe('a date read once (issue 27)', () => {
  it('canonical text is read into an IsoDate, printed as its text; any other ServerDate is read again', () => {
    const t = '2027-06-02T09:46:43.000Z';
    const d = parseServerDate(t);
    expect(d).toBeInstanceOf(IsoDate);
    expect(dateValue(d)).toBe(t);
    expect(parseServerDate('2027-06-02T09:46:43Z')).not.toBeInstanceOf(IsoDate);
    // A ServerDate made elsewhere whose text is canonical but not its time: its time, not its text.
    expect(dateValue({ raw: t, ms: 0 })).toBe('1970-01-01T00:00:00.000Z');
  });
});

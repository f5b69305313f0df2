/**
 * lineRows (issue 27: `lines --all` makes 100,000 rows) makes the row `pick(lineRecord(…))` made,
 * the same fields in the same order, for any line, any fields and any moment.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Line, LineListItem } from '../../src/api/contract';
import { DEFAULT_LINE_FIELDS, LINE_FIELDS, lineRecord, lineRows, pick } from '../../src/headless/format';

const date = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toString()),
  fc.constantFrom(
    '2027-06-02 09:46',
    'Wednesday, June 2, 2027 9:46:43 AM',
    'soon',
    '2027-02-30T00:00:00.000Z',
  ),
);
const item = fc.record({
  id: fc.uuid(),
  hostname: fc.option(fc.string({ maxLength: 12 })),
  username: fc.string({ maxLength: 12 }),
  password: fc.string({ maxLength: 12 }),
  label: fc.option(fc.string({ maxLength: 12 })),
  enabled: fc.oneof(fc.boolean(), fc.constantFrom('true', 'FALSE')),
  connections: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom('3', ' 2 ')),
  is_trial: fc.boolean(),
  exp_date: date,
  start_date: date,
  created_at: date,
  macaddress: fc.option(fc.constant('00:1A:79:12:34:56')),
  parental_code: fc.option(fc.constant('1234')),
});
const ALL = [...LINE_FIELDS, 'macaddress', 'parental_code'];
// The default fields (every listing without --fields: a row made as one literal) half the time.
const fields = fc.oneof(
  fc.constant([...DEFAULT_LINE_FIELDS]),
  fc.uniqueArray(fc.constantFrom(...ALL), { minLength: 1, maxLength: ALL.length }),
);

describe('lineRows', () => {
  it('is pick(lineRecord(…)) for a list item and a single line, field for field and in order (property)', () => {
    fc.assert(
      fc.property(
        item,
        fields,
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.boolean(),
        (raw, f, now, single) => {
          const l = single ? Line.parse(raw) : LineListItem.parse(raw);
          const before = pick(lineRecord(l, now), f);
          const row = lineRows(f)(l, now);
          expect(row).toStrictEqual(before);
          expect(JSON.stringify(row)).toBe(JSON.stringify(before));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

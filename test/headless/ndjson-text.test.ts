/**
 * A page of NDJSON is printed from one JSON.stringify of the page, split between its rows (issue 27):
 * byte for byte what a JSON.stringify a row printed, for any flat rows, strings that hold the very
 * text rows are split at included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ndjsonText } from '../../src/headless/commands/lines-stream';
import type { Row } from '../../src/headless/format';

const perRow = (rows: readonly Row[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/** Strings made of the pieces a split could be fooled by: braces, commas, quotes, backslashes, keys. */
const tricky = fc
  .array(
    fc.constantFrom('}', '{', ',', '"', '\\', ':', 'id', 'username', '},{"id":', '\\"', 'a', '\n', 'é'),
    {
      maxLength: 8,
    },
  )
  .map((parts) => parts.join(''));
const scalar = fc.oneof(
  tricky,
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const KEYS = ['id', 'username', 'label', 'status', '},{"id":', 'a"b'];

describe('NDJSON page text', () => {
  it('is a JSON.stringify a row, rows sharing their keys (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 1 }),
        fc.array(fc.array(scalar, { minLength: KEYS.length, maxLength: KEYS.length }), { maxLength: 6 }),
        (keys, values) => {
          const rows = values.map((v) => Object.fromEntries(keys.map((k, i) => [k, v[i]!])) as Row);
          expect(ndjsonText(rows)).toBe(perRow(rows));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('is a JSON.stringify a row when rows do not share their keys, or have none', () => {
    const rows: Row[] = [
      { id: '1', label: 'x},{"id":' },
      { label: '},{"label":' },
      {},
      { id: 'y' },
      { id: '}' },
    ];
    expect(ndjsonText(rows)).toBe(perRow(rows));
    expect(ndjsonText([])).toBe('');
    expect(ndjsonText([{}])).toBe('{}\n');
  });
});

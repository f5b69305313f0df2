/**
 * plainLinesPage reads a page's paging fields in their documented form without zod (issue 27: a page
 * a request), and `safeParseTiered` (the transport's parse) tries it first: whenever it reads a page
 * at all, the result is the schema's (keys, order, values, items good and bad); anything else is the
 * schema's to read, and so are its issues.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LinesPage, plainLinesPage } from '../../src/api/contract';
import { unwrapLazy } from '../../src/api/contract/lazy';
import { readPlainly, safeParseTiered } from '../../src/api/contract/tiered-parse';

const line = (id: string) => ({
  id,
  hostname: null,
  username: `user\u001b[2J${id}`,
  password: 'p',
  label: null,
  enabled: true,
  connections: 2,
  is_trial: false,
  exp_date: '2027-06-02T09:46:43.000Z',
  start_date: null,
  created_at: 'soon',
});
const odd = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constantFrom('3', ' 4 ', 'true', 'FALSE', 2.5, -1, 0, 1, 7, -0, Number.NaN, Number.POSITIVE_INFINITY),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, [], {}, 'x', true, false),
  fc.integer(),
  fc.double(),
);
const documented = fc.record({
  offset: fc.nat({ max: 1000 }),
  limit: fc.integer({ min: 1, max: 100 }),
  totalHits: fc.nat({ max: 1000 }),
  totalReturns: fc.nat({ max: 100 }),
  hasNextPage: fc.boolean(),
  hasPreviousPage: fc.boolean(),
  nextOffset: fc.option(fc.nat({ max: 1000 }), { nil: null }),
  previousOffset: fc.option(fc.nat({ max: 1000 }), { nil: null }),
  lines: fc.array(
    fc.oneof(
      fc.uuid().map(line),
      fc.uuid().map((id) => ({ ...line(id), connections: '3' })),
      fc.uuid().map((id) => ({ ...line(id), enabled: 'maybe' })),
      odd,
    ),
    { maxLength: 6 },
  ),
});
const KEYS = ['offset', 'limit', 'totalHits', 'totalReturns', 'hasNextPage', 'hasPreviousPage'] as const;
/** A documented page with some fields replaced by other types or dropped, or not an object at all. */
const page = fc.oneof(
  fc
    .tuple(documented, fc.dictionary(fc.constantFrom(...KEYS, 'nextOffset', 'previousOffset', 'lines'), odd))
    .map(([p, changes]) => {
      const o: Record<string, unknown> = { ...p };
      for (const [k, v] of Object.entries(changes)) {
        if (v === undefined) delete o[k];
        else o[k] = v;
      }
      return o;
    }),
  odd,
);
/** zod alone: the schema itself, never the plain reader. */
const zodAlone = (v: unknown) => unwrapLazy(LinesPage).safeParse(v);
const outcome = (r: { success: boolean; data?: unknown; error?: { issues: unknown[] } }) =>
  r.success ? { data: r.data, keys: Object.keys(r.data as object) } : { issues: r.error?.issues };

describe('a page of lines read without zod', () => {
  it('reads the documented form, as the schema does (property)', () => {
    fc.assert(
      fc.property(documented, (p) => {
        const quick = plainLinesPage(p);
        expect(quick).not.toBeNull();
        expect(outcome({ success: true, data: quick })).toStrictEqual(outcome(zodAlone(p)));
      }),
      { numRuns: 1_000 },
    );
  });

  it('the transport reads any page as zod alone does, issues included (property)', () => {
    fc.assert(
      fc.property(page, (p) => {
        expect(outcome(safeParseTiered(LinesPage, p))).toStrictEqual(outcome(zodAlone(p)));
        const quick = plainLinesPage(p);
        if (quick !== null)
          expect(outcome({ success: true, data: quick })).toStrictEqual(outcome(zodAlone(p)));
      }),
      { numRuns: 3_000 },
    );
    for (const o of [null, [], 'x', 3, { offset: 0 }]) expect(plainLinesPage(o)).toBeNull();
  });

  it("the transport's parse tries a schema's plain reader first, and the schema when it gives null", () => {
    const s = z.string().max(3);
    readPlainly(s, (v) => (v === 'ok' ? 'read plainly' : null));
    expect(safeParseTiered(s, 'ok')).toEqual({ success: true, data: 'read plainly' });
    expect(safeParseTiered(s, 'abc')).toMatchObject({ success: true, data: 'abc' });
    expect(safeParseTiered(s, 'abcd').success).toBe(false);
  });
});

// The list query read without zod (`plainListQuery`, issue 27) must give exactly what the schema
// gives, in the schema's key order (the query string is written in it), or leave the query to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LINE_STATUSES,
  LINE_TYPES,
  ListLinesQuery,
  ORDER_BY,
  ORDER_TYPES,
  plainListQuery,
} from '../../src/api/contract';

/** The entries a query string is written from: set values, in order. */
const written = (q: object) => Object.entries(q).filter(([, v]) => v !== undefined);

const number = fc.oneof(
  { arbitrary: fc.integer({ min: -5, max: 205 }), weight: 6 },
  fc.constantFrom(0, 1, 100, 101, 0.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 1e21),
  fc.constantFrom('0', '20', '', 'x', null),
);
const name = (values: readonly string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 8 }, fc.string({ maxLength: 4 }));
const query = fc.record(
  {
    offset: number,
    limit: number,
    status: name(LINE_STATUSES),
    type: name(LINE_TYPES),
    search: fc.oneof(fc.string({ maxLength: 8 }), fc.constant('x'.repeat(201)), fc.constant(undefined)),
    orderBy: name(ORDER_BY),
    orderType: name(ORDER_TYPES),
  },
  { requiredKeys: [] },
);
const withStranger = fc.oneof(
  { arbitrary: query, weight: 9 },
  query.map((q) => ({ ...q, other: 1 })),
);

describe('plainListQuery', () => {
  it('gives what the schema gives, key for key in its order, or null', () => {
    let plain = 0;
    fc.assert(
      fc.property(withStranger, (q) => {
        const fast = plainListQuery(q);
        const schema = ListLinesQuery.safeParse(q);
        if (fast === null) return;
        plain++;
        expect(schema.success).toBe(true);
        expect(written(fast)).toEqual(written(schema.data!));
      }),
      { numRuns: 3_000 },
    );
    // The fast path is taken, not only refused.
    expect(plain).toBeGreaterThan(50);
  });

  it('reads a walk’s page query, and leaves a stranger key, a string number or a search too long to the schema', () => {
    const page = {
      offset: 900,
      limit: 100,
      status: 'all',
      type: 'all',
      orderBy: 'id',
      orderType: 'asc',
    } as const;
    expect(plainListQuery(page)).toEqual(page);
    expect(plainListQuery({})).toEqual(ListLinesQuery.parse({}));
    expect(plainListQuery({ ...page, page: 2 })).toBeNull();
    expect(plainListQuery({ ...page, offset: '900' })).toBeNull();
    expect(plainListQuery({ ...page, limit: 101 })).toBeNull();
    expect(plainListQuery({ ...page, search: 'x'.repeat(201) })).toBeNull();
    expect(plainListQuery({ ...page, status: 'expired' })).toBeNull();
  });
});

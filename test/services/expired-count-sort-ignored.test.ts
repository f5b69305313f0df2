/**
 * The expired count against servers that do not keep the order asked for (review rev2 #5). Spot
 * checks cannot prove a list over a page sorted, so the promise is narrower than "never a wrong
 * number": a list of a page or less is read whole and counted (exact, whatever its order), and a
 * server that ignores the offset (the same line at both ends) gives "could not count". A server that
 * ignores the sort on a longer list can still be miscounted (docs/PERFORMANCE.md says so).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countExpired } from '../../src/services/expired-count';
import { listing, NOW, type PageQuery, pageOf, type Row, truth } from '../helpers/expired-rows';

/** A server that lists `rows` in their own order (by id, say) whatever orderBy asks. */
const ignoresSort = (rows: readonly Row[], opts: { ignoreOffset?: boolean } = {}) =>
  listing(async (q: PageQuery) => {
    await Promise.resolve();
    return pageOf(rows, opts.ignoreOffset ? { ...q, offset: 0 } : q, Number.POSITIVE_INFINITY);
  });

describe('the expired count against a server that ignores the order asked for', () => {
  it('a server that ignores offset (every page from the start): "could not count", not 500', async () => {
    const rows: Row[] = Array.from({ length: 500 }, (_, i) => (i < 200 ? NOW - 10 : NOW + 10));
    expect(await countExpired(ignoresSort(rows, { ignoreOffset: true }), rows.length, NOW)).toBeNull();
  });

  it('property: a page or less in any fixed order (sort ignored) is counted exactly, or not at all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant<Row>(null), fc.integer({ min: NOW - 5, max: NOW + 5 })), {
          minLength: 1,
          maxLength: 100,
        }),
        async (rows) => {
          const got = await countExpired(ignoresSort(rows), rows.length, NOW);
          expect(got === null || got === truth(rows)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a page or less with its expired lines in one run is counted whatever the order around them', async () => {
    const rows: Row[] = [NOW + 9, null, NOW - 1, NOW - 7, NOW - 3, NOW + 2, null];
    expect(await countExpired(ignoresSort(rows), rows.length, NOW)).toBe(3);
  });
});

/**
 * The expired count against servers that do not keep the order asked for (review rev2 #5). Spot
 * checks cannot prove a list over a page sorted, so the promise is narrower than "never a wrong
 * number": a list of a page or less is read whole and counted (exact, whatever its order), and a
 * server that ignores the offset (the same line at both ends) gives "could not count". On a longer
 * list every expiry read (the ends, the probes, the last page) is held to the order asked for, so a
 * server whose own order is unrelated to the expiry gives "could not count"; one whose order is
 * sorted but for a few lines none of the reads fall on can still be miscounted
 * (docs/PERFORMANCE.md says so).
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

  /** `rows` in an order of their own: a seeded shuffle (Fisher–Yates), unrelated to the expiry. */
  const shuffled = (rows: readonly Row[], seed: number): Row[] => {
    const out = [...rows];
    let x = seed | 1;
    for (let i = out.length - 1; i > 0; i--) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      const j = (x >>> 0) % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };

  it('property: a longer list in an order of its own (sort ignored) is counted exactly, or not at all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 101, max: 3_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer(),
        async (n, expiredShare, seed) => {
          // Distinct expiries, a share of them past: what a real list of lines holds.
          const rows: Row[] = Array.from({ length: n }, (_, i) =>
            i < Math.round(n * expiredShare) ? NOW - 1 - i : NOW + 1 + i,
          );
          const got = await countExpired(ignoresSort(shuffled(rows, seed)), n, NOW);
          expect(got === null || got === truth(rows)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a long list almost all expired, in an order of its own: "could not count", not every line', async () => {
    // The probes all land on expired lines, and so does the last page: only the order of the
    // expiries read says the list is not sorted.
    const rows: Row[] = Array.from({ length: 5_000 }, (_, i) => (i % 250 === 7 ? NOW + 1 + i : NOW - 1 - i));
    expect(await countExpired(ignoresSort(shuffled(rows, 42)), rows.length, NOW)).toBeNull();
  });

  it('a page or less with its expired lines in one run is counted whatever the order around them', async () => {
    const rows: Row[] = [NOW + 9, null, NOW - 1, NOW - 7, NOW - 3, NOW + 2, null];
    expect(await countExpired(ignoresSort(rows), rows.length, NOW)).toBe(3);
  });
});

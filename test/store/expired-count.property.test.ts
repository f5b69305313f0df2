/** The expired count's k-ary search (issue #27) against a count of every line, on generated lists. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { ServerDate } from '../../src/api/contract';
import { countExpired, probePlaces, probesFor } from '../../src/services/expired-count';

const NOW = 1_000_000;
const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
type Row = number | null;

/** Lines expired (ties among them, and at NOW itself: expired), running (ties from NOW + 1) and
 *  never expiring, in the order a server sorting by expiry gives them (nulls first or last). */
const lists = fc.record({
  expired: fc.integer({ min: 0, max: 1200 }),
  atNow: fc.integer({ min: 0, max: 3 }),
  running: fc.integer({ min: 0, max: 1200 }),
  never: fc.integer({ min: 0, max: 250 }),
  nullsFirst: fc.boolean(),
});
const build = (l: {
  expired: number;
  atNow: number;
  running: number;
  never: number;
  nullsFirst: boolean;
}) => {
  const dated: Row[] = [
    ...Array.from({ length: l.expired }, (_, i) => NOW - 2 + Math.floor((i * 3) / Math.max(1, l.expired))),
    ...Array.from({ length: l.atNow }, () => NOW),
    ...Array.from({ length: l.running }, (_, i) => NOW + 1 + Math.floor((i * 3) / Math.max(1, l.running))),
  ];
  const nulls: Row[] = Array.from({ length: l.never }, () => null);
  return l.nullsFirst ? [...nulls, ...dated] : [...dated, ...nulls];
};
/** The count by brute force: every line with an expiry at or before now. */
const bruteForce = (rows: readonly Row[]) => rows.filter((r) => r !== null && r <= NOW).length;

/** A server over `rows()` (read at each request, so a test can change it), counting requests and
 *  round trips in turn (a request that leaves while none is in flight starts one). */
const serverOf = (rows: () => Row[], before?: (request: number) => void) => {
  const seen = { requests: 0, roundTrips: 0, widest: 0 };
  let inFlight = 0;
  const client = {
    listLines: async (q: { offset?: number; limit?: number }) => {
      before?.(++seen.requests);
      if (inFlight++ === 0) seen.roundTrips++;
      try {
        await Promise.resolve();
        const offset = q.offset ?? 0;
        const limit = q.limit ?? 20;
        seen.widest = Math.max(seen.widest, limit);
        const list = rows();
        const lines = list
          .slice(offset, offset + limit)
          .map((ms) => ({ exp_date: ms === null ? null : date(ms) }));
        return { totalHits: list.length, lines };
      } finally {
        inFlight--;
      }
    },
  } as unknown as Pick<ApiClient, 'listLines'>;
  return { client, seen };
};

describe('the expired count by rounds of probes (issue 27)', () => {
  it('equals a count of every line: lines without expiry first or last, ties at now and around it', async () => {
    await fc.assert(
      fc.asyncProperty(lists, async (l) => {
        const rows = build(l);
        const { client, seen } = serverOf(() => rows);
        expect(await countExpired(client, rows.length, NOW)).toBe(bruteForce(rows));
        expect(seen.widest).toBeLessThanOrEqual(100); // never more than a page asked for
        if (l.never === 0 && rows.length > 98) {
          // The ends with the first round of probes, then rounds of (at most) 4 down to 98 lines, then
          // the page, then the ends read again after it: 2,000 lines in 4 round trips (binary: 7).
          let [w, rounds] = [rows.length, 2];
          while (w > 98) [w, rounds] = [Math.ceil((w - 4) / 5), rounds + 1];
          expect(seen.roundTrips).toBeLessThanOrEqual(rounds);
          expect(seen.requests).toBeLessThanOrEqual(2 + 4 * (rounds - 2) + 3);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a list that gains or loses lines between probes is searched again: the count is the new list’s', async () => {
    await fc.assert(
      fc.asyncProperty(
        lists,
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0),
        fc.option(fc.integer({ min: -2, max: 2 }), { nil: null }),
        async (l, at, delta, value) => {
          let rows = build(l);
          const change = () => {
            // A total that moves (the guard the search has): lines added at their place in the
            // order, or removed from the start.
            if (delta < 0) rows = rows.slice(Math.min(rows.length, -delta));
            else {
              const add: Row[] = Array.from({ length: delta }, () => (value === null ? null : NOW + value));
              const dated = rows.filter((r) => r !== null) as number[];
              const nulls = rows.filter((r) => r === null);
              const sorted = [...dated, ...add.filter((r) => r !== null)].sort((x, y) => x - y);
              const never = [...nulls, ...add.filter((r) => r === null)];
              rows = l.nullsFirst ? [...never, ...sorted] : [...sorted, ...never];
            }
          };
          const before = build(l).length;
          const { client } = serverOf(
            () => rows,
            (n) => {
              if (n === at) change();
            },
          );
          // The list as it is after the change (or as it was, where the count was done before it).
          expect(await countExpired(client, before, NOW)).toBe(bruteForce(rows));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('probes of one round that turn back (not sorted) give "could not count", never a guess', async () => {
    // 2,000 lines, 300 expired, and one more far among the running ones, where the first round
    // probes (400, 800, 1,200, 1,600): past the turn at 400, before it again at 800.
    const rows: Row[] = Array.from({ length: 2000 }, (_, i) => (i < 300 ? NOW - 1 : NOW + 1));
    rows[800] = NOW - 1;
    expect(probePlaces(0, 2000, probesFor(2000, 98))).toContain(800);
    const { client } = serverOf(() => rows);
    expect(await countExpired(client, rows.length, NOW)).toBeNull();
  });

  it('the probes of a round split the window into parts as even as they can be', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 200_000 }), (a, w) => {
        const k = probesFor(w, 98);
        expect(k).toBeGreaterThanOrEqual(1);
        expect(k).toBeLessThanOrEqual(4);
        const at = probePlaces(a, a + w, k);
        const parts = [at[0]! - a, ...at.slice(1).map((m, i) => m - at[i]! - 1), a + w - at[k - 1]! - 1];
        expect(Math.min(...parts)).toBeGreaterThanOrEqual(0);
        expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

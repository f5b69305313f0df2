/** The expired count on a list that changes while it is searched with its total unchanged (a line
 *  renewed, lapsing, or gaining or losing an expiry between probes), and on pages capped short. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { countExpired } from '../../src/services/expired-count';
import { findExpiredBlock } from '../../src/services/expired-view';
import { listing, NOW, type PageQuery, type Row, sortedPage, truth } from '../helpers/expired-rows';

/** A sorting server (nulls first or last) over rows that `change` may alter before a request. */
const sorting = (get: () => Row[], nullsFirst: boolean, before: (n: number) => void, cap = 100) => {
  let n = 0;
  return listing(async (q: PageQuery) => {
    before(++n);
    await Promise.resolve();
    return sortedPage(get(), q, nullsFirst, cap);
  });
};

describe('review rev2: sorted servers, a list that changes at the same total, short pages', () => {
  it('property: lines renewed or lapsing between probes (total unchanged): a count the list had at some point, or null', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant<Row>(null), fc.integer({ min: NOW - 5, max: NOW + 5 })), {
          minLength: 1,
          maxLength: 1500,
        }),
        fc.boolean(),
        fc.array(
          fc.record({
            at: fc.integer({ min: 1, max: 25 }),
            which: fc.nat(),
            to: fc.oneof(fc.constant<Row>(null), fc.integer({ min: NOW - 5, max: NOW + 5 })),
          }),
          { maxLength: 3 },
        ),
        fc.constantFrom(100, 37, 1),
        async (start, nullsFirst, changes, cap) => {
          let rows = [...start];
          const truths = new Set([truth(rows)]);
          const client = sorting(
            () => rows,
            nullsFirst,
            (n) => {
              for (const c of changes)
                if (c.at === n) {
                  rows = [...rows];
                  rows[c.which % rows.length] = c.to;
                  truths.add(truth(rows));
                }
            },
            cap,
          );
          const got = await countExpired(client, rows.length, NOW);
          if (got !== null) expect([...truths]).toContain(got);
        },
      ),
      { numRuns: Number(process.env.RUNS ?? 400) },
    );
  });
});

describe('review rev2: a line without expiry that gains one between the searches', () => {
  const scenario = async (
    count: (client: Pick<ApiClient, 'listLines'>, n: number) => Promise<number | null>,
  ) => {
    const wrong: string[] = [];
    for (let k = 1; k <= 30; k++) {
      let rows: Row[] = [
        null,
        null,
        null,
        ...Array.from({ length: 150 }, () => NOW - 5),
        ...Array.from({ length: 150 }, () => NOW + 5),
      ];
      const truths = new Set([truth(rows)]); // 150, before and after
      const client = sorting(
        () => rows,
        true,
        (n) => {
          if (n === k) {
            rows = [...rows];
            rows[0] = NOW + 5;
            truths.add(truth(rows));
          }
        },
      );
      const got = await count(client, rows.length);
      if (got !== null && !truths.has(got))
        wrong.push(`change at request ${k}: counted ${got}, truth ${[...truths]}`);
    }
    return wrong;
  };
  it('nulls first, 3 never + 150 expired + 150 running; one never line renewed (running) at request k: never a wrong count', async () => {
    expect(await scenario((client, n) => countExpired(client, n, NOW))).toEqual([]);
  });
  it('the expired view finds its block with the same guard', async () => {
    expect(
      await scenario(async (client) => (await findExpiredBlock(client, {}, NOW))?.count ?? null),
    ).toEqual([]);
  });
});

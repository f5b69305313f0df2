/** The expired count: the final checks' reads are separate requests from the page: a server may answer them in any order. */
import { expect, it } from 'vitest';
import { countExpired } from '../../src/services/expired-count';
import { listing, NOW, type PageQuery, type Row, sortedPage, truth } from '../helpers/expired-rows';

it.each([
  [
    'a line without expiry gains a running one',
    20,
    2,
    (rows: Row[]) => {
      rows[0] = NOW + 5000;
    },
  ],
  [
    'a running line loses its expiry (no line without one before)',
    0,
    1,
    (rows: Row[]) => {
      rows[299] = null;
    },
  ],
] as const)(
  '%s between the end checks and the page: never a count the list never had',
  async (_, nulls, pageNo, change) => {
    // `nulls` never (nulls first), 100 expired, the rest running: total 300, expired 100.
    let rows: Row[] = [
      ...Array<Row>(nulls).fill(null),
      ...Array.from({ length: 100 }, (_, i) => NOW - 1000 + i),
      ...Array.from({ length: 200 - nulls }, (_, i) => NOW + 1000 + i),
    ];
    const truths = new Set([truth(rows)]);
    let pages = 0;
    const client = listing(async (q: PageQuery) => {
      if ((q.limit ?? 0) > 1 && ++pages === pageNo) {
        // The main search's page: answered after the reads sent with it, and after a change.
        await new Promise((r) => setImmediate(r));
        rows = [...rows];
        change(rows); // total unchanged
        truths.add(truth(rows));
        return sortedPage(rows, q);
      }
      return sortedPage(rows, q);
    });
    const got = await countExpired(client, rows.length, NOW);
    expect(pages).toBeGreaterThanOrEqual(pageNo);
    if (got !== null) expect([...truths]).toContain(got);
  },
);

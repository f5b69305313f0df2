import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { ServerDate } from '../../src/api/contract';
import { countExpired } from '../../src/services/expired-count';
import { storeOnSandbox } from '../helpers/app';

describe('expired lines, counted without a filter for them', () => {
  it('against the sandbox: the count equals its own books, in a few dozen one-line requests', async () => {
    const env = await storeOnSandbox({ lines: 1500 });
    const now = Date.now();
    const truth = (
      env.sb.repo.db
        .prepare(
          'SELECT count(*) AS n FROM lines WHERE account_id = 1 AND exp_date IS NOT NULL AND exp_date <= ?',
        )
        .get(now) as {
        n: number;
      }
    ).n;
    expect(truth).toBeGreaterThan(0);
    let calls = 0;
    // Round trips in turn: a request that leaves while none is in flight starts one.
    let inFlight = 0;
    let roundTrips = 0;
    const client = {
      listLines: async (q: Parameters<typeof env.client.listLines>[0]) => {
        calls++;
        if (inFlight++ === 0) roundTrips++;
        try {
          return await env.client.listLines(q);
        } finally {
          inFlight--;
        }
      },
    };
    expect(await countExpired(client, 1500, now)).toBe(truth);
    expect(calls).toBeLessThan(40);
    // The search probes down to a page by rounds of one-line probes sent together (1,500 lines: two
    // rounds of three, the first sent with the two ends), then reads that page whole with a line more
    // at each side, and the ends' checks are read after it (issue #27: `linedesk account` is mostly
    // this search's round trips; probing to the end one line at a time is 13, 7 with the first probe
    // after the ends, 6 with the checks in a round trip after the page). Read with the page, the
    // checks could mix two moments of a changing list, so they wait for it: one round trip more.
    expect(roundTrips).toBeLessThanOrEqual(4);
    await env.store.getState().loadCounts();
    expect(env.store.getState().counts).toMatchObject({ status: 'ready', data: { expired: truth } });
  });

  it('a server whose expiry order does not hold gets "could not count", never a guess', async () => {
    const NOW = 1_000_000;
    const order = [NOW + 5, NOW - 5, NOW + 9, NOW - 9, NOW + 1]; // not sorted
    const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
    const client = {
      listLines: async (q?: { offset?: unknown }) => ({
        lines: [{ exp_date: date(order[Number(q?.offset ?? 0)]!) }],
      }),
    } as unknown as Pick<ApiClient, 'listLines'>;
    expect(await countExpired(client, order.length, NOW)).toBeNull();
  });

  it("a list that changes while it is searched is searched again: the count is the new list's", async () => {
    const NOW = 1_000_000;
    const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
    let rows = [NOW - 5, NOW - 4, NOW - 3, NOW + 1, NOW + 2, NOW + 3, NOW + 4, NOW + 5];
    let probes = 0;
    const client = {
      listLines: async (q?: { offset?: unknown }) => {
        // Two expired lines deleted before the second probe: the last place asked for is gone.
        if (++probes === 2) rows = rows.slice(2);
        const at = rows[Number(q?.offset ?? 0)];
        return { totalHits: rows.length, lines: at === undefined ? [] : [{ exp_date: date(at) }] };
      },
    } as unknown as Pick<ApiClient, 'listLines'>;
    expect(await countExpired(client, 8, NOW)).toBe(1);
  });

  it('lines that never expire, sorted first or last, are not counted', async () => {
    const NOW = 1_000_000;
    const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
    for (const rows of [
      [null, null, date(NOW - 2), date(NOW - 1), date(NOW + 1)],
      [date(NOW - 2), date(NOW - 1), date(NOW + 1), null, null],
    ]) {
      const client = {
        listLines: async (q?: { offset?: unknown }) => ({
          lines: [{ exp_date: rows[Number(q?.offset ?? 0)] }],
        }),
      } as unknown as Pick<ApiClient, 'listLines'>;
      expect(await countExpired(client, rows.length, NOW)).toBe(2);
    }
  });
});

describe('the search ends with one page read (issue 27)', () => {
  it('gives the count probing one line at a time would, on sorted lists of any size, nulls first or last', async () => {
    const NOW = 1_000_000;
    const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 450 }),
        fc.integer({ min: 0, max: 450 }),
        fc.integer({ min: 0, max: 40 }),
        fc.boolean(),
        async (expired, running, never, nullsFirst) => {
          const dated = [
            ...Array.from({ length: expired }, (_, i) => date(NOW - expired + i)),
            ...Array.from({ length: running }, (_, i) => date(NOW + 1 + i)),
          ];
          const nulls = Array.from({ length: never }, () => null);
          const rows = nullsFirst ? [...nulls, ...dated] : [...dated, ...nulls];
          let widest = 0;
          const client = {
            listLines: async (q: { offset?: number; limit?: number }) => {
              const offset = q.offset ?? 0;
              const limit = q.limit ?? 20;
              widest = Math.max(widest, limit);
              const lines = rows.slice(offset, offset + limit).map((exp_date) => ({ exp_date }));
              return { totalHits: rows.length, lines };
            },
          } as unknown as Pick<ApiClient, 'listLines'>;
          expect(await countExpired(client, rows.length, NOW)).toBe(expired);
          // Never more than a page asked for at once.
          expect(widest).toBeLessThanOrEqual(100);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the ends are read again after the probes: an end that no longer holds gives "could not count"', async () => {
    const NOW = 1_000_000;
    const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
    // 1,000 lines, 400 expired. Each end reads as sorted the first time and the other way the
    // second (a line extended, one lapsing, while the list was searched).
    for (const end of ['first', 'last'] as const) {
      const rows = Array.from({ length: 1000 }, (_, i) => (i < 400 ? NOW - 1000 + i : NOW + 1 + i));
      const at = end === 'first' ? 0 : rows.length - 1;
      let reads = 0;
      const client = {
        listLines: async (q: { offset?: number; limit?: number }) => {
          const offset = q.offset ?? 0;
          const limit = q.limit ?? 20;
          if (offset <= at && at < offset + limit && ++reads === 2)
            rows[at] = end === 'first' ? NOW + 5 : NOW - 5;
          const lines = rows.slice(offset, offset + limit).map((ms) => ({ exp_date: date(ms) }));
          return { totalHits: rows.length, lines };
        },
      } as unknown as Pick<ApiClient, 'listLines'>;
      expect(await countExpired(client, rows.length, NOW)).toBeNull();
      expect(reads).toBe(2);
    }
  });

  it('a page read whole that turns back (not sorted) gives "could not count"', async () => {
    const NOW = 1_000_000;
    const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
    // 150 lines: expired, then running, but one expired line among the running ones, inside the
    // page the search reads whole (probing alone, and the four checks, never look there: 60 is its guess).
    const rows = [...Array.from({ length: 60 }, () => NOW - 1), ...Array.from({ length: 90 }, () => NOW + 1)];
    rows[70] = NOW - 1;
    const client = {
      listLines: async (q: { offset?: number; limit?: number }) => {
        const offset = q.offset ?? 0;
        const lines = rows.slice(offset, offset + (q.limit ?? 20)).map((ms) => ({ exp_date: date(ms) }));
        return { totalHits: rows.length, lines };
      },
    } as unknown as Pick<ApiClient, 'listLines'>;
    expect(await countExpired(client, rows.length, NOW)).toBeNull();
  });
});

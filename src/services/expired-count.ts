import type { ApiClient } from '../api/client';
import type { LineTypeFilter } from '../api/contract';
import { ListChangedError, WALK_RETRIES } from './page-walk';

/**
 * How many lines have expired, which the API has no filter for. The list sorted by expiry is
 * searched for the first line still running (about 2 × log2(n) one-line requests); where lines
 * without an expiry sort is "not shown", so their block is found first. The answer is checked at
 * both ends and at its edge (expired before it, running from it); a server whose order does not
 * hold that gives null, "could not count", never a guess.
 */
export async function countExpired(
  client: Pick<ApiClient, 'listLines'>,
  total: number,
  nowMs: number,
  filter: ExpiryFilter = {},
): Promise<number | null> {
  return (await findExpiredSettled(client, total, nowMs, filter))?.count ?? null;
}

/**
 * `findExpired` on a list that holds still while it is searched: each probe's total is compared with
 * the one searched for, and a list that changed is searched again (with its new total) a bounded
 * number of times, then ListChangedError. `total` null: counted first.
 */
export async function findExpiredSettled(
  client: Pick<ApiClient, 'listLines'>,
  total: number | null,
  nowMs: number,
  filter: ExpiryFilter = {},
): Promise<ExpiredBlock | null> {
  for (let attempt = 0; ; attempt++) {
    const n = attempt || total === null ? (await client.listLines(byExpiry(filter, 0, 1))).totalHits : total;
    try {
      return await findExpired(client, n, nowMs, filter);
    } catch (err) {
      if (!(err instanceof ListChangedError) || attempt >= WALK_RETRIES) throw err;
    }
  }
}

/** The filters the expired block is found within (the list is all statuses, sorted by expiry). */
export interface ExpiryFilter {
  readonly type?: LineTypeFilter;
  readonly search?: string;
}

/** The expired lines' place in the list sorted by expiry ascending: [start, start + count). */
export interface ExpiredBlock {
  readonly start: number;
  readonly count: number;
  /** The list's total when the block was found: a later read counting another saw a change. */
  readonly total?: number;
}

/** The list request the expired block is an index range of. */
export const byExpiry = (filter: ExpiryFilter, offset: number, limit: number) => ({
  offset,
  limit,
  status: 'all' as const,
  type: filter.type ?? 'all',
  orderBy: 'exp_date' as const,
  orderType: 'asc' as const,
  ...(filter.search ? { search: filter.search } : {}),
});

/** Where the expired lines are in the list sorted by expiry, or null when the order does not hold;
 *  ListChangedError when the list's total moves while it is searched. */
export async function findExpired(
  client: Pick<ApiClient, 'listLines'>,
  total: number,
  nowMs: number,
  filter: ExpiryFilter = {},
): Promise<ExpiredBlock | null> {
  if (total === 0) return { start: 0, count: 0, total };
  // A probe that counts another total: a line came or went, and the positions searched moved.
  const at = async (i: number) => {
    const page = await client.listLines(byExpiry(filter, i, 1));
    if (Number.isFinite(page.totalHits) && page.totalHits !== total)
      throw new ListChangedError(`the total moved from ${total} to ${page.totalHits}`);
    return page.lines[0]?.exp_date;
  };
  // 'never' (no expiry), a time in ms, or undefined (unreadable or missing: cannot judge).
  const key = async (i: number): Promise<'never' | number | undefined> => {
    const d = await at(i);
    if (d === undefined) return undefined;
    if (d === null) return 'never';
    return d.ms ?? undefined;
  };
  // Reads that do not depend on each other go together (one round trip, not two): the search is
  // round trips in turn, most of `linedesk account`'s time.
  const [first, last] = await Promise.all([key(0), key(total - 1)]);
  if (first === undefined || last === undefined) return null;
  // Lines without an expiry at the start (SQL's NULLS FIRST) or at the end (NULLS LAST).
  let lo = 0;
  let hi = total;
  if (first === 'never' && last !== 'never') {
    // First line with an expiry: [0, k) never expire.
    let a = 0;
    let b = total - 1;
    while (a < b) {
      const m = (a + b) >> 1;
      const k = await key(m);
      if (k === undefined) return null;
      if (k === 'never') a = m + 1;
      else b = m;
    }
    lo = a;
  } else if (first !== 'never' && last === 'never') {
    let a = 0;
    let b = total - 1;
    while (a < b) {
      const m = (a + b) >> 1;
      const k = await key(m);
      if (k === undefined) return null;
      if (k !== 'never') a = m + 1;
      else b = m;
    }
    hi = a;
  } else if (first === 'never') return { start: 0, count: 0, total }; // every line never expires
  // In [lo, hi) every line has an expiry, sorted: find the first one still running.
  let a = lo;
  let b = hi;
  while (a < b) {
    const m = (a + b) >> 1;
    const k = await key(m);
    if (typeof k !== 'number') return null;
    if (k <= nowMs) a = m + 1;
    else b = m;
  }
  // Check the ends and the edge: a sorted list starts expired (when any is) and ends running (when
  // any is), and turns at the boundary found. The four reads go at once.
  const none = Promise.resolve(undefined);
  const [start, end, before, edge] = await Promise.all([
    a > lo ? key(lo) : none,
    a < hi ? key(hi - 1) : none,
    a > lo ? key(a - 1) : none,
    a < hi ? key(a) : none,
  ]);
  const expired = (k: 'never' | number | undefined) => typeof k === 'number' && k <= nowMs;
  const running = (k: 'never' | number | undefined) => typeof k === 'number' && k > nowMs;
  if (a > lo && !(expired(start) && expired(before))) return null;
  if (a < hi && !(running(end) && running(edge))) return null;
  return { start: lo, count: a - lo, total };
}

import type { ApiClient } from '../api/client';
import type { LineListItem, LineTypeFilter } from '../api/contract';
import { ListChangedError, PAGE_MAX, WALK_RETRIES } from './page-walk';

/**
 * How many lines have expired, which the API has no filter for. The list sorted by expiry is
 * searched for the first line still running (rounds of up to four one-line probes sent together,
 * then the last page whole, then its checks: 2,000 lines in 4 round trips and 13 requests, 100,000 in 7 and 19–20;
 * one probe at a time took 6 and 10, 11 and 14–15); where lines without an expiry sort is "not
 * shown", so their block is found first. The answer is checked at both ends, at its edge (expired
 * before it, running from it) and at the edges of the block without an expiry, all read after every
 * probe, and every expiry read (the ends, the probes, the page) is held to the order: a list that
 * does not hold it there gives null, "could not count". Spot checks cannot prove a longer list
 * sorted: a server whose order is sorted but for lines none of the reads fall on can be miscounted;
 * one that ignores the sort (its order unrelated to the expiry) turns back among them. Cheaper guards hold what they can: a list of a page or less
 * (100 lines) is read whole and counted, exact whatever its order, and the same line at both ends (a
 * server that ignores the offset) gives null.
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
  // 'never' (no expiry), a time in ms, or undefined (unreadable or missing: cannot judge).
  const keyOf = (d: LineListItem['exp_date'] | undefined): 'never' | number | undefined =>
    d === undefined ? undefined : d === null ? 'never' : (d.ms ?? undefined);
  /** Every expiry read, by its place (a page with a line left out shifts its places: not kept). */
  const dated = new Map<number, number>();
  // A read that counts another total: a line came or went, and the positions searched moved.
  const read = async (i: number, n: number) => {
    const page = await client.listLines(byExpiry(filter, i, n));
    if (Number.isFinite(page.totalHits) && page.totalHits !== total)
      throw new ListChangedError(`the total moved from ${total} to ${page.totalHits}`);
    if (page.lines.length === Math.min(n, total - i))
      for (let j = 0; j < page.lines.length; j++) {
        const k = keyOf(page.lines[j]!.exp_date);
        if (typeof k === 'number') dated.set(i + j, k);
      }
    return page;
  };
  const key = async (i: number) => keyOf((await read(i, 1)).lines[0]?.exp_date);
  // A list of a page or less is read whole and counted: one request, whatever order the server keeps;
  // expired lines that are not one run (the order does not hold: the view could not read them as a
  // block) give null. Where an item did not read (the page short), the search below decides.
  if (total <= PAGE_MAX) {
    const { lines } = await read(0, total);
    const keys = lines.map((l) => keyOf(l.exp_date));
    if (lines.length === total && keys.every((k) => k !== undefined)) {
      const at = keys.flatMap((k, i) => (typeof k === 'number' && k <= nowMs ? [i] : []));
      const start = at[0] ?? 0;
      return at.every((i, j) => i === start + j) ? { start, count: at.length, total } : null;
    }
  }
  /**
   * Single-line probes sent, by index: a round's probes go together, and those sent with the ends
   * (the first round of the search over the whole list) are taken by whichever search they fall in.
   */
  const probes = new Map<number, Promise<'never' | number | undefined>>();
  const probe = (i: number) => {
    let p = probes.get(i);
    if (!p) {
      p = key(i);
      p.catch(() => {}); // one never awaited (outside every window searched) fails unseen
      probes.set(i, p);
    }
    return p;
  };
  /** The keys of the last page read whole, by index (the final checks take the edge's from it). */
  const paged = new Map<number, 'never' | number | undefined>();
  /**
   * The first index in [a, b) whose key is past the turn (`past`: true past it, false before it,
   * undefined cannot judge → null), the list being sorted. Narrows by rounds of single-line probes
   * sent together (a (k + 1)-ary search, `probesFor`) while the range is wider than a page, then
   * reads what is left in one request: binary probing to the end was most of `linedesk account`'s
   * time. The page holds one line more at each side where [from, to) has one (the lines the answer's
   * edge is checked at when it falls at the window's side).
   */
  const firstPast = async (
    from: number,
    to: number,
    past: (k: 'never' | number | undefined) => boolean | undefined,
  ): Promise<number | null> => {
    paged.clear();
    let [a, b] = [from, to];
    /** Narrows [a, b) by rounds of probes until it is at most `width` wide; false: cannot judge,
     *  or probes that turn back (not sorted). */
    const narrow = async (width: number) => {
      for (;;) {
        // Probes already sent into [a, b) are taken first (no round trip of their own).
        let at = [...probes.keys()].filter((i) => i >= a && i < b).sort((x, y) => x - y);
        if (at.length === 0) {
          if (b - a <= width) return true;
          at = probePlaces(a, b, probesFor(b - a, width));
          for (const i of at) probe(i);
        }
        const keys = await Promise.all(at.map((i) => probe(i)));
        let [na, nb] = [a, b];
        let turned = false;
        for (let j = 0; j < at.length; j++) {
          const r = past(keys[j]);
          if (r === undefined || (turned && !r)) return false;
          if (r && !turned) [nb, turned] = [at[j]!, true];
          else if (!r) na = at[j]! + 1;
        }
        [a, b] = [na, nb];
      }
    };
    if (!(await narrow(SPAN))) return null;
    if (a >= b) return a;
    const ra = a > from ? a - 1 : a;
    const rb = b < to ? b + 1 : b;
    const { lines } = await read(ra, rb - ra);
    // A line left out as unreadable would shift every index after it: then probe to the end.
    if (lines.length !== rb - ra) {
      return (await narrow(0)) ? a : null;
    }
    for (let i = 0; i < lines.length; i++) paged.set(ra + i, keyOf(lines[i]!.exp_date));
    // The whole window is read, so all of it is held to the order: past never turns back.
    let turn: number | null = null;
    for (let i = a; i < b; i++) {
      const r = past(paged.get(i));
      if (r === undefined || (turn !== null && !r)) return null;
      if (r && turn === null) turn = i;
    }
    return turn ?? b;
  };
  // Reads that do not depend on each other go together (one round trip, not two). With the ends go
  // the first round's probes of the search over [0, total) (the usual list has no lines without an
  // expiry): taken by whichever search they fall in; where none does, their answers (or failures)
  // are left unread.
  if (total > SPAN) for (const i of probePlaces(0, total, probesFor(total, SPAN))) probe(i);
  const [firstItem, lastItem] = await Promise.all([
    read(0, 1).then((p) => p.lines[0]),
    read(total - 1, 1).then((p) => p.lines[0]),
  ]);
  const [first, last] = [keyOf(firstItem?.exp_date), keyOf(lastItem?.exp_date)];
  if (first === undefined || last === undefined) return null;
  // The same line at both ends: a server that ignores the offset (ids are unique).
  if (total > 1 && firstItem?.id !== undefined && firstItem.id === lastItem?.id) return null;
  // Lines without an expiry at the start (SQL's NULLS FIRST) or at the end (NULLS LAST).
  let lo = 0;
  let hi = total;
  if (first === 'never' && last !== 'never') {
    // First line with an expiry: [0, k) never expire.
    const k = await firstPast(0, total - 1, (x) => (x === undefined ? undefined : x !== 'never'));
    if (k === null) return null;
    lo = k;
  } else if (first !== 'never' && last === 'never') {
    const k = await firstPast(0, total - 1, (x) => (x === undefined ? undefined : x === 'never'));
    if (k === null) return null;
    hi = k;
  } else if (first === 'never') return { start: 0, count: 0, total }; // every line never expires
  // In [lo, hi) every line has an expiry, sorted: find the first one still running. The ends are
  // read after the page is answered, not with it: read at once, a change between their answers and
  // the page's could pass every check with a count the list never had (a sorted server answering in
  // any order). One round trip more; a single change between reads is always caught.
  const a = await firstPast(lo, hi, (x) => (typeof x === 'number' ? x > nowMs : undefined));
  if (a === null) return null;
  // Check the ends and the edge: a sorted list starts expired (when any is) and ends running (when
  // any is), and turns at the boundary found; the block without an expiry still ends at lo (starts
  // at hi): a line that gained or lost one at the same total moved every index. Each line is read
  // after every probe and the page: in the last page (which holds the lines at its sides), else read
  // now, all at once (a short page is not kept: the search probed on after it).
  const none = Promise.resolve(undefined);
  const after = (i: number) => (paged.has(i) ? Promise.resolve(paged.get(i)) : key(i));
  const [startSide, endSide, start, end, before, edge] = await Promise.all([
    lo > 0 ? after(lo - 1) : none,
    hi < total ? after(hi) : none,
    a > lo ? after(lo) : none,
    a < hi ? after(hi - 1) : none,
    a > lo ? after(a - 1) : none,
    a < hi ? after(a) : none,
  ]);
  const expired = (k: 'never' | number | undefined) => typeof k === 'number' && k <= nowMs;
  const running = (k: 'never' | number | undefined) => typeof k === 'number' && k > nowMs;
  // The block without expiry still ends at lo (starts at hi): a line that gained or lost one moved it.
  if ((lo > 0 && startSide !== 'never') || (hi < total && endSide !== 'never')) return null;
  if (a > lo && !(expired(start) && expired(before))) return null;
  if (a < hi && !(running(end) && running(edge))) return null;
  // Every expiry read holds the order asked for, not only its side of the turn: a server whose own
  // order is unrelated to the expiry (it ignores the sort) turns back somewhere among the ends, the
  // probes and the page, where the turn alone could pass (a list almost all expired).
  return inOrder(dated) ? { start: lo, count: a - lo, total } : null;
}

/** Whether the expiries read, by place, never go back (ties kept: lines of the same expiry). */
function inOrder(dated: ReadonlyMap<number, number>): boolean {
  const places = [...dated.keys()].sort((x, y) => x - y);
  for (let j = 1; j < places.length; j++)
    if (dated.get(places[j - 1]!)! > dated.get(places[j]!)!) return false;
  return true;
}

/** The window the search narrows to before it reads it whole: a page less the line at each side. */
const SPAN = PAGE_MAX - 2;
/**
 * Probes sent together at most, a round: 2,000 lines take 2 rounds of 4 (binary: 5 in turn), 100,000
 * lines 5 of 3 (binary: 10). Five would save a round for some sizes only (495–593, 2,475–3,563,
 * 12,375–21,383, 61,875–128,303 lines), at a probe a round out of the service's rate budget, which
 * bulk jobs share.
 */
const PROBES_MAX = 4;

/** The widest part k probes spread evenly over w lines leave. */
const widest = (w: number, k: number) => Math.ceil((w - k) / (k + 1));

/** Rounds of k probes that narrow w lines to `width`. */
const roundsOf = (w: number, k: number, width: number) => {
  let r = 0;
  for (; w > width; r++) w = widest(w, k);
  return r;
};

/** Probes a round over w lines: as few as narrow them to `width` in as few rounds as PROBES_MAX would. */
export function probesFor(w: number, width: number): number {
  const rounds = roundsOf(w, PROBES_MAX, width);
  let k = 1;
  while (roundsOf(w, k, width) > rounds) k++;
  return k;
}

/** Where k probes go in [a, b) (k ≤ b − a): the k + 1 parts they leave as even as they can be. */
export function probePlaces(a: number, b: number, k: number): number[] {
  const rest = b - a - k;
  const base = Math.floor(rest / (k + 1));
  const extra = rest % (k + 1);
  const places: number[] = [];
  for (let i = 0, at = a; i < k; i++) {
    at += base + (i < extra ? 1 : 0);
    places.push(at++);
  }
  return places;
}

import { type LineListItem, type LinesPage, SEARCH_MAX, type UnreadableItem } from '../api/contract';
import { countText } from '../domain/format';
import type { ServiceClient } from './client';
import { PAGE_MAX, type WalkOptions, walkWhole } from './page-walk';

export interface PasteLookup {
  /** Items found, each (as given) with its line. */
  readonly found: ReadonlyMap<string, LineListItem>;
  /** Items that name several lines whose usernames differ only by case: listed, never guessed. */
  readonly ambiguous: ReadonlyMap<string, readonly LineListItem[]>;
  /** Items no line answers to, in the order pasted. */
  readonly missing: readonly string[];
  /**
   * Of `missing`, those an item the server listed in a form that does not read answers to by its
   * whole id or username: a line is there, unread (reached or not: the stronger word).
   */
  readonly unreadable: readonly string[];
  /**
   * Of `missing`, the others the walk that would have settled them stopped before (at `maxPages`, or
   * cancelled): not known absent.
   */
  readonly unreached: readonly string[];
  /**
   * Of `missing`, the others when the whole list was read but `nameless` items in it did not read
   * their id or username: any of those may be the line, so none is proven absent.
   */
  readonly unidentified: readonly string[];
  /** Items met whose id or username did not read (by the walk that settled the rest; 0: none). */
  readonly nameless: number;
}

/**
 * Why a lookup left an item it did not find unsettled (not proven absent): `PasteLookup`'s three
 * lists, each item in one at most. Every one is said by `unsettledText`, never "not found".
 */
export type Unsettled = 'unreached' | 'unreadable' | 'unidentified';

/** Why `item` (as given) was left unsettled, or null: found, ambiguous, or proven absent. */
export function unsettledWhy(
  lookup: Pick<PasteLookup, 'unreached' | 'unreadable' | 'unidentified'>,
  item: string,
): Unsettled | null {
  return setOf(lookup.unreadable).has(item)
    ? 'unreadable'
    : setOf(lookup.unreached).has(item)
      ? 'unreached'
      : setOf(lookup.unidentified).has(item)
        ? 'unidentified'
        : null;
}

/** Each list's items as a set, made once: asked once per item missing (a paste or --stdin of 100,000
 *  lines), a search of the list each time was quadratic. */
const setsOf = new WeakMap<readonly string[], ReadonlySet<string>>();
function setOf(list: readonly string[]): ReadonlySet<string> {
  const kept = setsOf.get(list);
  if (kept) return kept;
  const set = new Set(list);
  setsOf.set(list, set);
  return set;
}

/**
 * The one wording of why a lookup did not settle an item, after "was"/"were" (the notes, the resume
 * offer, the commands): `not looked up (the lookup reads 20 pages at most)` (`maxPages`: the limit it
 * stopped at; none: it stopped first, cancelled or its output closed), `not readable (listed by the
 * server in a form that does not read)` (an item of that id or username), or `not identified (it may
 * be one of the 2 lines the server listed in a form that does not read)` (`nameless`: how many, when
 * known). Never "not found": only a whole list read proves that.
 */
export function unsettledText(why: Unsettled, maxPages?: number, nameless?: number): string {
  if (why === 'unreadable') return 'not readable (listed by the server in a form that does not read)';
  if (why === 'unidentified')
    return `not identified (it may be ${nameless === 1 ? 'the line' : nameless ? `one of the ${countText(nameless)} lines` : 'one of the lines'} the server listed in a form that does not read)`;
  return `not looked up (${maxPages === undefined ? 'the lookup stopped before it read the whole list' : `the lookup reads ${maxPages} pages at most`})`;
}

const CONCURRENCY = 4;

/** What one typed or pasted username or id names among some lines. */
type Resolution<L = LineListItem> =
  | { readonly kind: 'found'; readonly line: L; readonly exact: boolean }
  | { readonly kind: 'ambiguous'; readonly lines: readonly L[] }
  | { readonly kind: 'none' };

const byUsername = (a: { username: string }, b: { username: string }) =>
  a.username < b.username ? -1 : a.username > b.username ? 1 : 0;

/**
 * The one rule for a username or id someone typed or pasted (commands, paste, notes, find, the
 * palette): trimmed; the exact username, or the id in any case (a UUID is hex: `01A7F60E-…` from a
 * ticket is `01a7f60e-…`), first; else the one line whose username matches ignoring case (tickets
 * arrive in capitals); several that differ only by case are listed, never guessed.
 */
export function resolveItem<L extends Pick<LineListItem, 'id' | 'username'>>(
  lines: readonly L[],
  item: string,
): Resolution<L> {
  const t = item.trim();
  if (!t) return { kind: 'none' };
  const lower = t.toLowerCase();
  const exact = lines.find((l) => l.username === t || l.id.toLowerCase() === lower);
  if (exact) return { kind: 'found', line: exact, exact: true };
  const seen = new Set<string>();
  const folded = lines.filter((l) => l.username.toLowerCase() === lower && !seen.has(l.id) && seen.add(l.id));
  if (folded.length === 1) return { kind: 'found', line: folded[0]!, exact: false };
  if (folded.length > 1) return { kind: 'ambiguous', lines: [...folded].sort(byUsername) };
  return { kind: 'none' };
}

/** `"LIAM01" could be Liam01 or liam01 (usernames differ by case): give the one you mean`. */
export function ambiguityText(item: string, lines: readonly Pick<LineListItem, 'username'>[]): string {
  const names = lines.map((l) => l.username);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
  return `"${item.trim()}" could be ${list} (usernames differ by case): give the one you mean`;
}

/** Pages a walk of `total` lines takes: 100 on the first, 99 new on each after (one overlaps). */
export function walkPagesFor(total: number): number {
  return total <= PAGE_MAX ? 1 : 1 + Math.ceil((total - PAGE_MAX) / (PAGE_MAX - 1));
}

/**
 * Looks pasted usernames and ids up through the API by `resolveItem`, spending as few list requests
 * as it can (a bulk job's lookups spend the same rate budget as its changes): a search per item costs
 * one request each, one walk over every page costs the list's pages; whichever costs fewer is chosen,
 * from the total the caller knows without a request (`total`: the account's line count) or else the
 * first page's `totalHits` (that page then starts the walk, and settles the exact matches it holds).
 * While searching, the first item a search cannot settle (an id the server's search does not match, a
 * case-only match among more hits than one page) needs the walk anyway: the searches stop there and the
 * walk settles the rest. `progress` is told how many items are settled; `cancelled` stops between
 * requests. What the choice decides is the cost only: every item is settled by the same rule.
 */
export async function lookupPasted(
  client: Pick<ServiceClient, 'listLines'>,
  items: readonly string[],
  opts: {
    cancelled: () => boolean;
    progress: (settled: number) => void;
    maxPages?: number;
    /** How many lines the list has, when known without a request (it guides the choice only). */
    total?: number;
  },
): Promise<PasteLookup> {
  const keys = [...new Set(items.map((i) => i.trim()).filter(Boolean))];
  const found = new Map<string, LineListItem>();
  const ambiguous = new Map<string, readonly LineListItem[]>();
  const isSettled = (k: string) => found.has(k) || ambiguous.has(k);
  /** Ids and usernames (lower case) of items read that do not read: a line there, not proven absent. */
  const unreadable = new Set<string>();
  /** Items met whose id or username does not read (each may be any item missing): of the first
   *  page when it held the whole list, else of the walk's last pass (a list walked again is counted
   *  again from its start). */
  let nameless = 0;
  const settle = (lines: readonly LineListItem[], k: string, whole: boolean) => {
    const r = resolveItem(lines, k);
    // Every hit on this page (whole): no other spelling of the name is left on a later one.
    if (r.kind === 'found' && (r.exact || whole)) found.set(k, r.line);
    else if (r.kind === 'ambiguous' && whole) ambiguous.set(k, r.lines);
    return isSettled(k);
  };
  const cap = opts.maxPages ?? Number.POSITIVE_INFINITY;
  let first: LinesPage | null = null;
  let total = opts.total !== undefined && Number.isFinite(opts.total) ? opts.total : null;
  // One item is one search; for more, the first page says what a walk would cost.
  if (keys.length > 1 && total === null && !opts.cancelled()) {
    first = await client.listLines({ offset: 0, limit: PAGE_MAX });
    total = Number.isFinite(first.totalHits) ? first.totalHits : null;
    for (const name of unreadableNames(first)) unreadable.add(name);
    const whole = first.nextOffset === null && first.lines.length >= first.totalHits;
    for (const k of keys) settle(first.lines, k, whole);
    opts.progress(found.size + ambiguous.size);
    if (whole) return byItem(items, found, ambiguous, true, unreadable, namelessOf(first));
  }
  let left = keys.filter((k) => !isSettled(k));
  const pages = total === null ? null : walkPagesFor(total);
  if (!(pages !== null && pages - (first ? 1 : 0) < left.length && pages <= cap) && left.length) {
    let next = 0;
    let needWalk = false;
    const worker = async () => {
      while (next < left.length && !needWalk && !opts.cancelled()) {
        const k = left[next++]!;
        // A key longer than a search may be cannot be searched for (the request is refused before it
        // is sent, and the whole lookup with it): the walk settles it, and the rest.
        if (!fitsSearch(k)) {
          needWalk = true;
          break;
        }
        const page = await client.listLines({ search: k, limit: PAGE_MAX });
        if (!settle(page.lines, k, page.lines.length >= page.totalHits)) needWalk = true;
        opts.progress(found.size + ambiguous.size);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, left.length) }, worker));
    left = keys.filter((k) => !isSettled(k));
  }
  // Whether every item left unfound is proven absent: only a walk of the whole list proves it.
  let reachedAll = !left.length;
  if (left.length && !opts.cancelled()) {
    // A walk cut short at maxPages stops quietly: what it did not reach is "missing", and unreached.
    let walked = 0;
    const walk = {
      cancelled: () => opts.cancelled() || walked >= cap,
      onPage: (p: { pages: number }) => {
        walked = p.pages;
      },
    };
    const got = await resolveInPages(client, left, walk, first);
    // What did not read is the last pass's (it read the first page again, or kept it as its own).
    unreadable.clear();
    for (const name of unreadableNames({ unreadable: got.unreadItems })) unreadable.add(name);
    for (const [key, line] of got.found) found.set(key, line);
    for (const [key, lines] of got.ambiguous) ambiguous.set(key, lines);
    reachedAll = !got.cut;
    nameless = got.nameless;
  }
  opts.progress(found.size + ambiguous.size);
  return byItem(items, found, ambiguous, reachedAll, unreadable, nameless);
}

/**
 * Whether a text may be searched for: the list refuses a search longer than SEARCH_MAX characters
 * (counted in code points, as the request's check counts them) before it is sent. A longer name is
 * found by walking the list.
 */
export const fitsSearch = (text: string): boolean =>
  text.length <= SEARCH_MAX || [...text].length <= SEARCH_MAX;

/**
 * The ids and usernames, whole and in lower case, of a page's items that do not read (a line there
 * all the same): a key that is one of them names a line there, unread.
 */
export function unreadableNames(page: { readonly unreadable: readonly UnreadableItem[] }): string[] {
  return page.unreadable.flatMap((bad) =>
    [bad.id, bad.username].flatMap((n) => (n ? [n.toLowerCase()] : [])),
  );
}

/** How many of a page's items that do not read did not read their id or username either: each may
 *  be any line asked for. */
export function namelessOf(page: Pick<LinesPage, 'unreadable'>): number {
  let n = 0;
  for (const bad of page.unreadable) if (!bad.id || !bad.username) n++;
  return n;
}

/** The lookup by each item as given (trimmed keys inside). */
function byItem(
  items: readonly string[],
  found: ReadonlyMap<string, LineListItem>,
  ambiguous: ReadonlyMap<string, readonly LineListItem[]>,
  /** The whole list was read where it had to be: what is missing is absent. */
  reachedAll: boolean,
  /** Ids and usernames (lower case) of items met that do not read: what is missing by them is not. */
  unreadable: ReadonlySet<string>,
  /** Items met that did not read their id or username: any item missing may be one of them. */
  nameless: number,
): PasteLookup {
  const out = {
    found: new Map<string, LineListItem>(),
    ambiguous: new Map<string, readonly LineListItem[]>(),
  };
  const missing: string[] = [];
  for (const item of items) {
    const k = item.trim();
    const line = found.get(k);
    const several = ambiguous.get(k);
    if (line) out.found.set(item, line);
    else if (several) out.ambiguous.set(item, several);
    else missing.push(item);
  }
  // Each by the truest reason it has: an item of that name that does not read (a line is there,
  // reached or not); else a walk that stopped before the end; else, the whole list read, items whose
  // id or username did not read (any may be it). None is then proven absent.
  const bad: string[] = [];
  const unreached: string[] = [];
  const unidentified: string[] = [];
  for (const i of missing)
    if (unreadable.has(i.trim().toLowerCase())) bad.push(i);
    else if (!reachedAll) unreached.push(i);
    else if (nameless) unidentified.push(i);
  return { ...out, missing, unreadable: bad, unreached, unidentified, nameless };
}

/**
 * The lines whose id or username is one of `keys` (by `resolveItem`), by one walk over every page
 * (for servers whose search does not match ids); it stops once every key has its exact line, or
 * when `opts.cancelled` says so (a key matched only ignoring case waits for the end: another
 * spelling may come later). The walk is the one walker's (services/page-walk.ts): a list that changes
 * under it is walked again, so a line a deletion moves across a page boundary is not passed over.
 */
export async function findInPages(
  client: Pick<ServiceClient, 'listLines'>,
  keys: readonly string[],
  opts: WalkOptions = {},
): Promise<Map<string, LineListItem>> {
  return (await resolveInPages(client, keys, opts)).found;
}

/**
 * `findInPages`, and what the walk could not settle: whether it was cut short, and how many items of
 * its last pass did not read (`unread`, and which: `unreadItems`), and of those did not read their id
 * or username (`nameless`) or their id (`idless`): any of those may be a line asked for. All of the
 * last pass only: a list walked again is counted again from its start (a pass dropped is no reason).
 */
export async function resolveInPages(
  client: Pick<ServiceClient, 'listLines'>,
  keys: readonly string[],
  opts: WalkOptions,
  /** A first page already read (offset 0, 100 lines): the walk starts with it, not a request. */
  first: LinesPage | null = null,
): Promise<{
  found: Map<string, LineListItem>;
  ambiguous: Map<string, readonly LineListItem[]>;
  /** The walk stopped before the list's end (cancelled, or at its page limit). */
  cut: boolean;
  /** Items of the walk's last pass whose id or username did not read (`namelessOf`). */
  nameless: number;
  /** Of those, the items whose id did not read. */
  idless: number;
  /** Items of the walk's last pass that did not read (whatever their names). */
  unread: number;
  /** Those items, as the server named them (`unreadableNames` reads their names). */
  unreadItems: readonly UnreadableItem[];
}> {
  // Keys by their trimmed lower case: a line is a candidate for every key its id or username folds to.
  const byLower = new Map<string, string[]>();
  for (const k of keys) {
    const f = k.trim().toLowerCase();
    byLower.set(f, [...(byLower.get(f) ?? []), k]);
  }
  const wanted = new Set(keys).size;
  let kept = first;
  // A walk cut short (cancelled, or at its page limit) has not seen every spelling of a name: what
  // it found ignoring case may have an exact match on a page it never read.
  let cut = false;
  const cancelled = () => {
    if (opts.cancelled?.()) cut = true;
    return cut;
  };
  const walk = await walkWhole(
    (offset, limit, fresh) => {
      const page = kept;
      kept = null;
      // Only the very first fetch may be answered by it; a walk again reads afresh.
      return page && fresh && offset === 0 && limit === PAGE_MAX
        ? Promise.resolve(page)
        : client.listLines({ offset, limit });
    },
    () => ({
      candidates: new Map<string, LineListItem[]>(),
      exact: new Set<string>(),
      nameless: 0,
      idless: 0,
      unread: 0,
      unreadItems: [] as UnreadableItem[],
    }),
    (state, page) => {
      const { candidates, exact } = state;
      state.nameless += namelessOf(page);
      state.unread += page.unreadable.length;
      state.unreadItems.push(...page.unreadable);
      for (const bad of page.unreadable) if (!bad.id) state.idless++;
      for (const l of page.lines) {
        for (const key of [
          ...(byLower.get(l.username.toLowerCase()) ?? []),
          ...(byLower.get(l.id.toLowerCase()) ?? []),
        ]) {
          candidates.set(key, [...(candidates.get(key) ?? []), l]);
          const r = resolveItem([l], key);
          if (r.kind === 'found' && r.exact) exact.add(key);
        }
      }
      return exact.size === wanted;
    },
    { ...opts, cancelled },
  );
  const found = new Map<string, LineListItem>();
  const ambiguous = new Map<string, readonly LineListItem[]>();
  for (const [key, lines] of walk.candidates) {
    const r = resolveItem(lines, key);
    if (r.kind === 'found' && (r.exact || !cut)) found.set(key, r.line);
    else if (r.kind === 'ambiguous' && !cut) ambiguous.set(key, r.lines);
  }
  const { nameless, idless, unread, unreadItems } = walk;
  return { found, ambiguous, cut, nameless, idless, unread, unreadItems };
}

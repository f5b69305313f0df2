import type { LineListItem } from '../api/contract';
import type { ServiceClient } from './client';
import { type WalkOptions, walkWhole } from './page-walk';

export interface PasteLookup {
  /** Items found, each (as given) with its line. */
  readonly found: ReadonlyMap<string, LineListItem>;
  /** Items that name several lines whose usernames differ only by case: listed, never guessed. */
  readonly ambiguous: ReadonlyMap<string, readonly LineListItem[]>;
  /** Items no line answers to, in the order pasted. */
  readonly missing: readonly string[];
}

const CONCURRENCY = 4;

/** What one typed or pasted username or id names among some lines. */
export type Resolution<L = LineListItem> =
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

/**
 * Looks pasted usernames and ids up through the API by `resolveItem`: a search per item (a few at a
 * time); what a search page cannot settle (an id the server's search does not match, a case-only
 * match among more hits than one page) is looked for in one walk over every page. `progress` is
 * told how many items are settled; `cancelled` stops between requests.
 */
export async function lookupPasted(
  client: Pick<ServiceClient, 'listLines'>,
  items: readonly string[],
  opts: { cancelled: () => boolean; progress: (settled: number) => void; maxPages?: number },
): Promise<PasteLookup> {
  const found = new Map<string, LineListItem>();
  const ambiguous = new Map<string, readonly LineListItem[]>();
  let next = 0;
  let settled = 0;
  const worker = async () => {
    while (next < items.length && !opts.cancelled()) {
      const item = items[next++]!;
      const t = item.trim();
      if (t) {
        const page = await client.listLines({ search: t, limit: 100 });
        const r = resolveItem(page.lines, t);
        // Every hit on this page: no other spelling of the name is left on a later one.
        const whole = page.lines.length >= page.totalHits;
        if (r.kind === 'found' && (r.exact || whole)) found.set(item, r.line);
        else if (r.kind === 'ambiguous' && whole) ambiguous.set(item, r.lines);
      }
      opts.progress(++settled);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  const left = items.filter((i) => !found.has(i) && !ambiguous.has(i) && i.trim());
  if (left.length && !opts.cancelled()) {
    // A walk cut short at maxPages stops quietly: what it did not reach is "missing".
    let pages = 0;
    const walk = {
      cancelled: () => opts.cancelled() || pages >= (opts.maxPages ?? Number.POSITIVE_INFINITY),
      onPage: (p: { pages: number }) => {
        pages = p.pages;
      },
    };
    const got = await resolveInPages(client, left, walk);
    for (const [key, line] of got.found) found.set(key, line);
    for (const [key, lines] of got.ambiguous) ambiguous.set(key, lines);
  }
  return { found, ambiguous, missing: items.filter((i) => !found.has(i) && !ambiguous.has(i)) };
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

async function resolveInPages(
  client: Pick<ServiceClient, 'listLines'>,
  keys: readonly string[],
  opts: WalkOptions,
): Promise<{ found: Map<string, LineListItem>; ambiguous: Map<string, readonly LineListItem[]> }> {
  // Keys by their trimmed lower case: a line is a candidate for every key its id or username folds to.
  const byLower = new Map<string, string[]>();
  for (const k of keys) {
    const f = k.trim().toLowerCase();
    byLower.set(f, [...(byLower.get(f) ?? []), k]);
  }
  const wanted = new Set(keys).size;
  const walk = await walkWhole(
    (offset, limit) => client.listLines({ offset, limit }),
    () => ({ candidates: new Map<string, LineListItem[]>(), exact: new Set<string>() }),
    ({ candidates, exact }, page) => {
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
    opts,
  );
  const found = new Map<string, LineListItem>();
  const ambiguous = new Map<string, readonly LineListItem[]>();
  for (const [key, lines] of walk.candidates) {
    const r = resolveItem(lines, key);
    if (r.kind === 'found') found.set(key, r.line);
    else if (r.kind === 'ambiguous') ambiguous.set(key, r.lines);
  }
  return { found, ambiguous };
}

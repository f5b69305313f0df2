import type { LineListItem } from '../api/contract';
import type { StoreClient } from './deps';
import { type WalkOptions, walkWhole } from './page-walk';

export interface PasteLookup {
  /** Items found, each with its line. */
  readonly found: ReadonlyMap<string, LineListItem>;
  /** Items no line answers to, in the order pasted. */
  readonly missing: readonly string[];
}

const CONCURRENCY = 4;

/**
 * Whether a line answers to what was given: its username exactly (usernames differ by case), or its
 * id in any case (a UUID is hex: `01A7F60E-…` from a ticket is the same line as `01a7f60e-…`).
 */
export const answersTo = (l: Pick<LineListItem, 'id' | 'username'>, item: string): boolean =>
  l.username === item || l.id.toLowerCase() === item.toLowerCase();

/**
 * Looks pasted usernames and ids up through the API: a search per item (a few at a time), an exact
 * username or id only; search may not match ids, so ids still missing are looked for in one walk
 * over every page. `progress` is told how many items are settled; `cancelled` stops between requests.
 */
export async function lookupPasted(
  client: Pick<StoreClient, 'listLines'>,
  items: readonly string[],
  opts: { cancelled: () => boolean; progress: (settled: number) => void; maxPages?: number },
): Promise<PasteLookup> {
  const found = new Map<string, LineListItem>();
  let next = 0;
  let settled = 0;
  const worker = async () => {
    while (next < items.length && !opts.cancelled()) {
      const item = items[next++]!;
      const page = await client.listLines({ search: item, limit: 100 });
      const hit = page.lines.find((l) => answersTo(l, item));
      if (hit) found.set(item, hit);
      opts.progress(++settled);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  const left = items.filter((i) => !found.has(i));
  if (left.length && !opts.cancelled()) {
    // A walk cut short at maxPages stops quietly: what it did not reach is "missing".
    let pages = 0;
    const walk = {
      cancelled: () => opts.cancelled() || pages >= (opts.maxPages ?? Number.POSITIVE_INFINITY),
      onPage: (p: { pages: number }) => {
        pages = p.pages;
      },
    };
    for (const [key, line] of await findInPages(client, left, walk)) found.set(key, line);
  }
  return { found, missing: items.filter((i) => !found.has(i)) };
}

/**
 * The lines whose id or username is one of `keys`, by one walk over every page (for servers whose
 * search does not match ids); it stops once every key is found, or when `opts.cancelled` says so.
 * The walk is the one walker's (store/page-walk.ts): a list that changes under it is walked again,
 * so a line a deletion moves across a page boundary is not passed over.
 */
export async function findInPages(
  client: Pick<StoreClient, 'listLines'>,
  keys: readonly string[],
  opts: WalkOptions = {},
): Promise<Map<string, LineListItem>> {
  // Keys by their lower case, for ids given in upper case (found under the key as given).
  const byLower = new Map<string, string[]>();
  for (const k of keys) byLower.set(k.toLowerCase(), [...(byLower.get(k.toLowerCase()) ?? []), k]);
  const walk = await walkWhole(
    (offset, limit) => client.listLines({ offset, limit }),
    () => ({ found: new Map<string, LineListItem>(), left: new Set(keys) }),
    ({ found, left }, page) => {
      for (const l of page.lines) {
        for (const key of [l.username, ...(byLower.get(l.id.toLowerCase()) ?? [])]) {
          if (left.has(key)) {
            found.set(key, l);
            left.delete(key);
          }
        }
      }
      return left.size === 0;
    },
    opts,
  );
  return walk.found;
}

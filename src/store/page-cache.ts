import type { LineListItem, LinesPage } from '../api/contract';
import type { LinesQuery } from './types';

/** How long a page fetched (prefetched or seen) is shown without being read again. */
const CACHE_MS = 30_000;

interface PageCache {
  /** The page from the cache (younger than CACHE_MS), the request of the same page already sent
   *  since the last clear, or a new request. */
  fetch(q: LinesQuery, offset: number, limit: number): Promise<LinesPage>;
  /** Whether `fetch` would answer from the cache (no request). */
  has(q: LinesQuery, offset: number, limit: number): boolean;
  /** After a change or a refresh: no page fetched or asked before is shown again (a new epoch). */
  clear(): void;
  /** A forced load: the pages kept are read again; a request of this epoch still in flight (sent
   *  after the last change, for the same reason) is shared. */
  expire(): void;
  /** A row replaced from a change's reply (read at `at`): a page whose request was sent before it
   *  shows it instead of the row it read. */
  written(line: LineListItem, at: number): void;
  /** A line gone (deleted): nothing of it is kept. */
  drop(id: string): void;
  /** A fetched page as the screen shows it, with when each row was read (its request's start; a row
   *  written since: when that was given). */
  landed(page: LinesPage): { readonly page: LinesPage; readonly readAt: Map<string, number> };
}

/**
 * The list's pages fetched ahead (the next page is prefetched) or recently seen. The cache has a
 * generation (`epoch`) bumped when it is cleared: a request sent under an older one may hold rows
 * from before the change that cleared it (an expiry before an extend: a user seeing it could renew
 * again and pay twice). No later load joins it, it is not cached, and its rows never replace rows
 * written since. Identical loads of the same epoch share one request.
 */
export function createPageCache(
  listPage: (q: LinesQuery, offset: number, limit: number) => Promise<LinesPage>,
  now: () => number,
): PageCache {
  const cache = new Map<string, { page: LinesPage; at: number }>();
  let epoch = 0;
  const inflight = new Map<string, { p: Promise<LinesPage>; epoch: number }>();
  /** When each page fetched was asked for (its lines are at least that fresh), and under which epoch. */
  const asked = new WeakMap<LinesPage, { at: number; epoch: number }>();
  /** Rows replaced while older requests were in flight, with the epoch they were written under. */
  const rows = new Map<string, { line: LineListItem; at: number; epoch: number }>();

  const keyOf = (q: LinesQuery, offset: number, limit: number) => JSON.stringify([q, offset, limit]);
  const hit = (key: string) => {
    const h = cache.get(key);
    return h && now() - h.at < CACHE_MS ? h.page : undefined;
  };

  return {
    fetch(q, offset, limit) {
      const key = keyOf(q, offset, limit);
      const cached = hit(key);
      if (cached) return Promise.resolve(cached);
      const joined = inflight.get(key);
      if (joined?.epoch === epoch) return joined.p;
      const sent = epoch;
      const at = now();
      const p = listPage(q, offset, limit)
        .then((page) => {
          asked.set(page, { at, epoch: sent });
          if (sent === epoch) {
            if (cache.size > 40) cache.clear();
            cache.set(key, { page, at: now() });
          }
          return page;
        })
        .finally(() => {
          if (inflight.get(key)?.p === p) inflight.delete(key);
        });
      inflight.set(key, { p, epoch: sent });
      return p;
    },
    has: (q, offset, limit) => hit(keyOf(q, offset, limit)) !== undefined,
    clear() {
      cache.clear();
      epoch++;
    },
    expire: () => cache.clear(),
    written(line, at) {
      // Only a request still in flight (sent before this) can bring an older row.
      if (inflight.size) rows.set(line.id, { line, at, epoch });
    },
    drop: (id) => void rows.delete(id),
    landed(page) {
      const a = asked.get(page);
      const shown = page.lines.map((l) => {
        const w = rows.get(l.id);
        return w && a && w.epoch > a.epoch ? w : { line: l, at: a?.at };
      });
      // Rows written are kept only while an older request may still bring older ones.
      const oldest = Math.min(epoch, ...[...inflight.values()].map((r) => r.epoch));
      for (const [id, w] of rows) if (w.epoch <= oldest) rows.delete(id);
      const readAt = new Map<string, number>();
      for (const { line, at } of shown) if (at !== undefined) readAt.set(line.id, at);
      const changed = shown.some((w, i) => w.line !== page.lines[i]);
      return { page: changed ? { ...page, lines: shown.map((w) => w.line) } : page, readAt };
    },
  };
}

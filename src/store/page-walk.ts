import type { LinesPage } from './types';

/** A walk over pages stopped because the server's paging cannot be trusted. */
export class PagingError extends Error {}

export interface WalkOptions {
  /** Checked before each page: true stops the walk quietly. */
  readonly cancelled?: () => boolean;
  /** At most this many pages whatever the server says (default 2,000: 200,000 lines at 100). */
  readonly maxPages?: number;
  readonly onPage?: (p: { pages: number; lines: number; total: number }) => void;
}

/**
 * Every page of a listing, in order, with guards: the walk stops with a PagingError when an offset
 * repeats or does not move forward, when a page repeats line ids already seen, or when it passes
 * the page limit (what `totalHits` implies, with slack, and an absolute cap).
 */
export async function* walkPages(
  fetch: (offset: number) => Promise<LinesPage>,
  opts: WalkOptions = {},
): AsyncGenerator<LinesPage> {
  const seenOffsets = new Set<number>();
  const seenIds = new Set<string>();
  const cap = opts.maxPages ?? 2_000;
  let pages = 0;
  let lines = 0;
  for (let offset: number | null = 0; offset !== null; ) {
    if (opts.cancelled?.()) return;
    if (seenOffsets.has(offset)) throw new PagingError(`the server sent offset ${offset} twice`);
    seenOffsets.add(offset);
    const page = await fetch(offset);
    pages++;
    for (const l of page.lines) {
      if (seenIds.has(l.id)) throw new PagingError(`the server repeated line ${l.id} on a later page`);
      seenIds.add(l.id);
    }
    lines += page.lines.length;
    const limit = Math.max(1, Math.min(cap, Math.ceil(page.totalHits / Math.max(1, page.limit)) + 2));
    if (pages > limit)
      throw new PagingError(`more pages than the ${page.totalHits} lines it counts can fill`);
    opts.onPage?.({ pages, lines, total: page.totalHits });
    yield page;
    const next: number | null = page.nextOffset;
    if (next !== null && next <= offset)
      throw new PagingError(`the next offset (${next}) does not move forward from ${offset}`);
    offset = next;
  }
}

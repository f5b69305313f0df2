import type { ApiClient } from '../api/client';
import type { LinesPage } from '../api/contract';
import { byExpiry, type ExpiredBlock, type ExpiryFilter, findExpiredSettled } from './expired-count';

/**
 * The API has no filter for expired lines. The expired view is the expired block of the list sorted
 * by expiry (found by `findExpired`, within the same type and search), laid out as a listing of its
 * own: offsets count from the block's start, `totalHits` is its size, and "most recently expired
 * first" reads the block from its end.
 */
export async function expiredPage(
  client: Pick<ApiClient, 'listLines'>,
  filter: ExpiryFilter,
  block: ExpiredBlock,
  order: 'asc' | 'desc',
  offset: number,
  limit: number,
  nowMs: number,
): Promise<LinesPage> {
  const n = Math.min(limit, block.count - offset);
  const base = {
    offset,
    limit,
    totalHits: block.count,
    hasPreviousPage: offset > 0,
    previousOffset: offset > 0 ? Math.max(0, offset - limit) : null,
    hasNextPage: offset + limit < block.count,
    nextOffset: offset + limit < block.count ? offset + limit : null,
  };
  if (n <= 0) return { ...base, totalReturns: 0, lines: [], unreadable: [] };
  const at = order === 'asc' ? block.start + offset : block.start + block.count - offset - n;
  const page = await client.listLines(byExpiry(filter, at, n));
  // A line renewed since the block was found is no longer expired: it leaves the view.
  const expired = page.lines.filter((l) => typeof l.exp_date?.ms === 'number' && l.exp_date.ms <= nowMs);
  const lines = order === 'asc' ? expired : expired.reverse();
  return { ...base, totalReturns: lines.length, lines, unreadable: page.unreadable };
}

/** Finds the block for a view: the list's size first, then the block within it (searched again when
 *  the list changes meanwhile). */
export async function findExpiredBlock(
  client: Pick<ApiClient, 'listLines'>,
  filter: ExpiryFilter,
  nowMs: number,
): Promise<ExpiredBlock | null> {
  return findExpiredSettled(client, null, nowMs, filter);
}

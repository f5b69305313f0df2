/**
 * Pages of a numbered list (items 0…n-1, ids and usernames '0000', '0001'…) as a page walk's fetch
 * gets them, for the walk's tests.
 */
import type { LineListItem, LinesPage } from '../../src/store/types';

/** Item `k`'s id and username. */
export const idOf = (k: number) => String(k).padStart(4, '0');

/**
 * The page at `offset` of `n` items, `limit` asked. `unreadable(k)` says how item k does not read:
 * 'nameless' (neither its id nor its username reads), 'field' (its id reads, its status does not),
 * or false (it reads). `totalHits`: the count the page says (`n` unless given).
 */
export function numberedPage(
  offset: number,
  limit: number,
  {
    n,
    unreadable,
    totalHits = n,
  }: {
    readonly n: number;
    readonly unreadable: (k: number) => 'nameless' | 'field' | false;
    readonly totalHits?: number;
  },
): LinesPage {
  const lines: LineListItem[] = [];
  const unread: LinesPage['unreadable'][number][] = [];
  for (let k = offset; k < Math.min(n, offset + limit); k++) {
    const how = unreadable(k);
    if (how === 'nameless')
      unread.push({ index: k - offset, id: null, username: null, field: 'id', message: 'unreadable' });
    else if (how === 'field')
      unread.push({ index: k - offset, id: idOf(k), username: null, field: 'status', message: 'unreadable' });
    else lines.push({ id: idOf(k), username: idOf(k) } as unknown as LineListItem);
  }
  const count = lines.length + unread.length;
  const next = offset + count < n ? offset + count : null;
  return {
    offset,
    limit,
    totalHits,
    totalReturns: count,
    hasNextPage: next !== null,
    hasPreviousPage: offset > 0,
    nextOffset: next,
    previousOffset: null,
    lines,
    unreadable: unread,
  } as LinesPage;
}

import type { LineListItem, LinesPage, LineTypeFilter, OrderBy, OrderType } from '../api/contract';
import type { ChangeOp } from '../domain/change-rules';
import { statusOf } from '../domain/format';
import { EXPIRING_WITHIN_DAYS } from '../domain/line-status';
import { DAY_MS } from '../domain/pricing';
import type { ServiceClient } from './client';
import type { ExpiredBlock } from './expired-count';
import { expiredPage, findExpiredBlock } from './expired-view';
import { PagingError } from './page-walk';

import type { StatusView } from './status-views';

export { STATUS_VIEWS, type StatusView } from './status-views';

export interface LinesQuery {
  readonly search: string;
  readonly status: StatusView;
  readonly type: LineTypeFilter;
  readonly orderBy: OrderBy;
  readonly orderType: OrderType;
}

export const DEFAULT_QUERY: LinesQuery = {
  search: '',
  status: 'all',
  type: 'all',
  orderBy: 'id',
  orderType: 'asc',
};

/**
 * The page of `q` after a change whose lines were replaced in place with the server's rows is still
 * the page the server would list: the change moves no line in the order and into or out of the
 * filter. Derived, not listed: a line of every kind the filters tell apart (expired, expiring,
 * running, no or an unreadable expiry; enabled or not; trial or not) is changed as the change changes
 * it (`CHANGED`), and the page stays when every one passes `passesFilters` as before and keeps its
 * sort key. A filter or an order added there is judged here with nothing more to write. The search
 * matches a username or an id, which no change of a line's own alters. A create or a delete moves
 * lines: read again.
 */
export function pageStaysAfter(op: ChangeOp, q: LinesQuery): boolean {
  const change = CHANGED[op];
  if (!change) return false;
  const key = SORT_KEY[q.orderBy];
  return SAMPLE_LINES.every((before) =>
    change(before, SAMPLE_NOW).every(
      (after) =>
        passesFilters(after, q, SAMPLE_NOW) === passesFilters(before, q, SAMPLE_NOW) &&
        key(after) === key(before),
    ),
  );
}

/** What each change does to a line's own fields (the reference's state table); null: lines come or go. */
const CHANGED: Record<ChangeOp, ((l: LineListItem, now: number) => LineListItem[]) | null> = {
  create: null,
  trial: null,
  delete: null,
  // A month or more from the expiry, or from now when it is past (or unreadable).
  extend: (l, now) =>
    [1, 3, 12].map((months) => ({
      ...l,
      exp_date: { ms: Math.max(now, l.exp_date?.ms ?? now) + months * 30 * DAY_MS, raw: '' },
    })),
  upgrade: (l) => [1, 2, 6].map((connections) => ({ ...l, connections })),
  unsuspend: (l) => [{ ...l, enabled: true }],
};

/** The value each order sorts a line by (the server breaks ties by id, which no change alters). */
const SORT_KEY: Record<OrderBy, (l: LineListItem) => unknown> = {
  id: (l) => l.id,
  username: (l) => l.username,
  enabled: (l) => l.enabled,
  exp_date: (l) => l.exp_date?.ms,
};

const SAMPLE_NOW = Date.UTC(2026, 0, 1);
/** A line of every kind the filters tell apart. */
const SAMPLE_LINES: readonly LineListItem[] = [
  { ms: SAMPLE_NOW - 3 * DAY_MS, raw: '' },
  { ms: SAMPLE_NOW + (EXPIRING_WITHIN_DAYS / 2) * DAY_MS, raw: '' },
  { ms: SAMPLE_NOW + (EXPIRING_WITHIN_DAYS + 30) * DAY_MS, raw: '' },
  { ms: null, raw: 'unreadable' },
  null,
].flatMap((exp_date) =>
  [true, false].flatMap((enabled) =>
    [true, false].map(
      (is_trial) =>
        ({
          id: '1',
          username: 'sample',
          enabled,
          is_trial,
          connections: 1,
          exp_date,
        }) as unknown as LineListItem,
    ),
  ),
);

/** How long a found expired block is trusted (lines expire): found again after it. */
const BLOCK_MS = 30_000;

/** The list request for a query and a window (of the API's statuses: `expired` is a view). */
function listParams(
  q: LinesQuery & { status: Exclude<LinesQuery['status'], 'expired'> },
  offset: number,
  limit: number,
) {
  return {
    offset,
    limit,
    status: q.status,
    type: q.type,
    orderBy: q.orderBy,
    orderType: q.orderType,
    ...(q.search ? { search: q.search } : {}),
  };
}

interface LinesPager {
  /** One page of a query (the expired view included). `fresh`: the first page of a walk, so the
   *  expired block is found again (a block found earlier may be out of date, and nothing before the
   *  first page could tell). */
  page(
    q: LinesQuery,
    offset: number,
    limit: number,
    opts?: { readonly fresh?: boolean; readonly onAnswered?: () => void; readonly after?: Promise<void> },
  ): Promise<LinesPage>;
  /** After a write or a refresh: a renewed line may have left the expired block. */
  forget(): void;
}

/** The one way a page of lines is read, for the browser, mark-all and `linedesk lines`. */
export function linesPager(client: ServiceClient, now: () => number = Date.now): LinesPager {
  // Where the expired lines are, per type and search; found again after BLOCK_MS.
  const blocks = new Map<string, { block: Promise<ExpiredBlock | null>; at: number }>();
  return {
    async page(q, offset, limit, opts = {}) {
      if (q.status !== 'expired')
        return client.listLines(listParams({ ...q, status: q.status }, offset, limit), {
          ...(opts.onAnswered ? { onAnswered: opts.onAnswered } : {}),
          ...(opts.after ? { after: opts.after } : {}),
        });
      // The expired view's requests are made when they may leave.
      if (opts.after) await opts.after;
      const filter = { type: q.type, search: q.search };
      const key = JSON.stringify(filter);
      let entry = blocks.get(key);
      if (!entry || opts.fresh || now() - entry.at >= BLOCK_MS) {
        const mine = { block: findExpiredBlock(client, filter, now()), at: now() };
        blocks.set(key, mine);
        // A failed lookup forgets itself only: after a forget or a fresh walk the key may hold a
        // newer lookup, which stays (deleting it would cost another search).
        mine.block.catch(() => {
          if (blocks.get(key) === mine) blocks.delete(key);
        });
        entry = mine;
      }
      const block = await entry.block;
      if (!block)
        throw new PagingError(
          'its order by expiry does not hold, so the expired lines cannot be found (nothing is guessed)',
        );
      return expiredPage(client, filter, block, q.orderType, offset, limit, now());
    },
    forget: () => blocks.clear(),
  };
}

/** The status and type filters, applied to a line found locally (by its note) as the server applies them. */
export function passesFilters(line: LineListItem, q: LinesQuery, now: number): boolean {
  if (q.type === 'trial' && !line.is_trial) return false;
  if (q.type === 'premium' && line.is_trial) return false;
  const status = statusOf(line, now);
  switch (q.status) {
    case 'all':
      return true;
    case 'suspended':
      return !line.enabled;
    case 'active':
      return status === 'active' || status === 'expiring';
    case 'expiring':
      return status === 'expiring';
    case 'expired':
      return line.exp_date?.ms != null && line.exp_date.ms <= now;
  }
}

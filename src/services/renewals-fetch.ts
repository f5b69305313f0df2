import type { LineListItem } from '../api/contract';
import { LIMIT_MAX } from '../api/contract/requests';
import { DAY_MS } from '../domain/pricing';
import type { RenewalWindow } from '../domain/renewals';
import type { ServiceClient } from './client';
import { byExpiry } from './expired-count';
import { findExpiredBlock } from './expired-view';
import { ListChangedError, PagingError, rawItems, WALK_RETRIES, walkPages } from './page-walk';

/** The most lines a group lists; the view says when it stopped there. */
export const GROUP_CAP = 1_000;
/** The API's largest page. */
const PAGE = LIMIT_MAX;

export interface RenewalsFound {
  readonly expiring: LineListItem[];
  readonly expired: LineListItem[];
  readonly suspended: LineListItem[];
  /** A group stopped at GROUP_CAP. */
  readonly capped: boolean;
}

const ms = (l: LineListItem) => l.exp_date?.ms ?? null;

/**
 * What the renewals view lists, from the API's list endpoint alone (so it works on any service):
 * the expired block of the list sorted by expiry, read forward from its end for what expires soon
 * and backward for what expired lately, and the suspended lines. Every read is checked the way the
 * one walker checks (services/page-walk.ts): pages overlap by a line and count the block's total; a list
 * that changes meanwhile (a line renewed moves in this order) is read again, twice at most, then
 * ListChangedError.
 */
export async function fetchRenewals(
  client: Pick<ServiceClient, 'listLines'>,
  window: RenewalWindow,
  nowMs: number,
  cancelled: () => boolean = () => false,
  /** `suspended: false`: the suspended lines are not walked (the runway needs only what expires soon). */
  opts: { readonly suspended?: boolean } = {},
): Promise<RenewalsFound> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(client, window, nowMs, cancelled, opts.suspended !== false);
    } catch (err) {
      if (!(err instanceof ListChangedError) || attempt >= WALK_RETRIES || cancelled()) throw err;
    }
  }
}

async function fetchOnce(
  client: Pick<ServiceClient, 'listLines'>,
  window: RenewalWindow,
  nowMs: number,
  cancelled: () => boolean,
  withSuspended: boolean,
): Promise<RenewalsFound> {
  const block = await findExpiredBlock(client, {}, nowMs);
  if (!block) throw new PagingError('its order by expiry does not hold, so renewals cannot be listed');
  const edge = block.start + block.count;
  let capped = false;
  const sorted = (offset: number, limit: number) => client.listLines(byExpiry({}, offset, limit));

  const expiring: LineListItem[] = [];
  const until = nowMs + window.withinDays * DAY_MS;
  const forward = walkPages(sorted, {
    from: edge,
    pageSize: PAGE,
    cancelled,
    ...(block.total !== undefined ? { total: block.total } : {}),
  });
  for await (const page of forward) {
    let done = page.lines.length === 0;
    for (const l of page.lines) {
      const at = ms(l);
      if (at === null || at > until) {
        done = true;
        break;
      }
      if (at > nowMs) expiring.push(l);
    }
    if (expiring.length >= GROUP_CAP) capped = true;
    if (done || capped) break;
  }

  const expired: LineListItem[] = [];
  const since = nowMs - window.expiredDays * DAY_MS;
  // Backward, each page one line longer than its window: its last line is the first one of the page
  // read before (later in the list), which must still be there.
  let after: string | null = null;
  // No expired side asked for (the runway's): none read.
  for (let end = edge; window.expiredDays > 0 && end > block.start && !cancelled(); ) {
    // With the line of overlap, a page holds at most the API's largest page.
    const from = Math.max(block.start, end - PAGE + (after === null ? 0 : 1));
    const page = await sorted(from, end - from + (after === null ? 0 : 1));
    const moved = (n: number) =>
      block.total !== undefined && Number.isFinite(n) && n !== block.total
        ? `the total moved from ${block.total} to ${n}`
        : null;
    const raw = rawItems(page);
    const key = raw[end - from]?.key;
    const why =
      moved(page.totalHits) ??
      (after !== null && key !== after ? `the line at offset ${end} is not the one read there` : null);
    if (why) throw new ListChangedError(why);
    const lines = raw.slice(0, end - from).flatMap((i) => (i.line ? [i.line] : []));
    let done = lines.length === 0;
    for (const l of [...lines].reverse()) {
      const at = ms(l);
      if (at === null || at < since) {
        done = true;
        break;
      }
      if (at <= nowMs) expired.push(l);
    }
    if (expired.length >= GROUP_CAP) capped = true;
    if (done || capped) break;
    after = raw[0]?.key ?? null;
    end = from;
  }

  const suspended: LineListItem[] = [];
  const pages = walkPages(
    (offset, limit) =>
      client.listLines({ offset, limit, status: 'suspended', orderBy: 'exp_date', orderType: 'asc' }),
    { cancelled, pageSize: PAGE },
  );
  for await (const page of withSuspended ? pages : []) {
    suspended.push(...page.lines);
    if (suspended.length >= GROUP_CAP) {
      capped = true;
      break;
    }
  }
  return {
    expiring: expiring.slice(0, GROUP_CAP),
    expired: expired.slice(0, GROUP_CAP),
    suspended: suspended.slice(0, GROUP_CAP),
    capped,
  };
}

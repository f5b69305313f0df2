import type { LineListItem } from '../api/contract';
import { DAY_MS } from '../domain/pricing';
import type { RenewalWindow } from '../domain/renewals';
import type { StoreClient } from './deps';
import { byExpiry } from './expired-count';
import { findExpiredBlock } from './expired-view';
import { PagingError, walkPages } from './page-walk';

/** The most lines a group lists; the view says when it stopped there. */
export const GROUP_CAP = 1_000;
const PAGE = 100;

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
 * and backward for what expired lately, and the suspended lines.
 */
export async function fetchRenewals(
  client: Pick<StoreClient, 'listLines'>,
  window: RenewalWindow,
  nowMs: number,
  cancelled: () => boolean = () => false,
): Promise<RenewalsFound> {
  const block = await findExpiredBlock(client, {}, nowMs);
  if (!block) throw new PagingError('its order by expiry does not hold, so renewals cannot be listed');
  const edge = block.start + block.count;
  let capped = false;

  const expiring: LineListItem[] = [];
  const until = nowMs + window.withinDays * DAY_MS;
  for (let offset = edge; !cancelled(); ) {
    const page = await client.listLines(byExpiry({}, offset, PAGE));
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
    if (done || capped || page.nextOffset === null) break;
    offset += page.lines.length;
  }

  const expired: LineListItem[] = [];
  const since = nowMs - window.expiredDays * DAY_MS;
  for (let end = edge; end > block.start && !cancelled(); ) {
    const from = Math.max(block.start, end - PAGE);
    const page = await client.listLines(byExpiry({}, from, end - from));
    let done = page.lines.length === 0;
    for (const l of [...page.lines].reverse()) {
      const at = ms(l);
      if (at === null || at < since) {
        done = true;
        break;
      }
      if (at <= nowMs) expired.push(l);
    }
    if (expired.length >= GROUP_CAP) capped = true;
    if (done || capped) break;
    end = from;
  }

  const suspended: LineListItem[] = [];
  const pages = walkPages(
    (offset) =>
      client.listLines({ offset, limit: PAGE, status: 'suspended', orderBy: 'exp_date', orderType: 'asc' }),
    { cancelled },
  );
  for await (const page of pages) {
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

import type { UnreadableItem } from '../api/contract';
import { shownName } from '../domain/format';
import type { ServiceClient } from './client';
import { countExpired } from './expired-count';

/** Per-status and per-type counts for the account summary (totalHits of filtered queries). */
export interface StatusCounts {
  readonly all: number;
  readonly active: number;
  readonly suspended: number;
  readonly expiring: number;
  readonly premium: number;
  readonly trial: number;
  /** Counted by walking the list sorted by expiry (the API has no filter): null when it could not be. */
  readonly expired: number | null;
}

/** The account's lines counted, for the account screen and `linedesk account`. */
export async function countLines(client: ServiceClient, now: number): Promise<StatusCounts> {
  const total = async (q: Parameters<ServiceClient['listLines']>[0]) =>
    (await client.listLines({ ...q, limit: 1 })).totalHits;
  const [all, active, suspended, expiring, premium, trial] = await Promise.all([
    total({}),
    total({ status: 'active' }),
    total({ status: 'suspended' }),
    total({ status: 'expiring' }),
    total({ type: 'premium' }),
    total({ type: 'trial' }),
  ]);
  const expired = await countExpired(client, all, now).catch(() => null);
  return { all, active, suspended, expiring, premium, trial, expired };
}

/** "1 package the server sent could not be read and is left out (#3 duration: expected a number)". */
export function skippedText(what: string, skipped: readonly UnreadableItem[]): string {
  const first = skipped[0]!;
  const n = skipped.length;
  return `${n} ${what}${n === 1 ? '' : 's'} the server sent could not be read and ${n === 1 ? 'is' : 'are'} left out (${first.username === null ? `#${first.index + 1}` : shownName(first.username)} ${first.field}: ${first.message})`;
}

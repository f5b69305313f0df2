import type { Line, LineListItem } from '../api/contract';
import type { StoreClient } from './deps';
import type { Operation } from './journal';

export interface ReconcileCase {
  readonly op: Operation;
  /** The line as it was before (extend, upgrade, unsuspend, delete). */
  readonly before?: { readonly id: string; readonly expMs: number | null; readonly connections: number };
  /** Create and trial: the username that was sent. */
  readonly username?: string;
  /** Upgrade: the connections asked for. */
  readonly connections?: number;
}

/**
 * After an unknown outcome, the server decides: a new line is looked up by the username that was
 * sent; extend and upgrade compare expiry and connections with what they were; unsuspend checks
 * `enabled`; delete looks the line up. Throws when the server cannot be asked.
 */
export async function reconcile(
  client: StoreClient,
  c: ReconcileCase,
): Promise<{ applied: boolean; line?: LineListItem | Line }> {
  const find = async (search: string) => (await client.listLines({ search, limit: 100 })).lines;
  if (c.op === 'create' || c.op === 'trial') {
    const line = (await find(c.username!)).find((l) => l.username === c.username);
    return line ? { applied: true, line } : { applied: false };
  }
  const before = c.before!;
  const now = (await find(before.id)).find((l) => l.id === before.id);
  switch (c.op) {
    case 'delete':
      return { applied: now === undefined };
    case 'extend':
      return now && (now.exp_date?.ms ?? 0) > (before.expMs ?? 0)
        ? { applied: true, line: now }
        : { applied: false };
    case 'upgrade':
      return now && now.connections === c.connections && before.connections !== c.connections
        ? { applied: true, line: now }
        : { applied: false };
    case 'unsuspend':
      return now?.enabled ? { applied: true, line: now } : { applied: false };
  }
}

import type { Line, LineListItem } from '../api/contract';
import type { ActionState } from './action-slice';
import type { StoreClient } from './deps';

/**
 * After an unknown outcome, the server decides: a new line is looked up by the username that was
 * sent; extend and upgrade compare expiry and connections with what they were; unsuspend checks
 * `enabled`; delete looks the line up. Throws when the server cannot be asked.
 */
export async function reconcile(
  client: StoreClient,
  a: ActionState,
): Promise<{ applied: boolean; line?: LineListItem | Line }> {
  const find = async (search: string) => {
    const page = await client.listLines({ search, limit: 100 });
    return page.lines;
  };
  if (a.op === 'create' || a.op === 'trial') {
    const username = (a.body as { username: string }).username;
    const line = (await find(username)).find((l) => l.username === username);
    return line ? { applied: true, line } : { applied: false };
  }
  const before = a.line!;
  const now = (await find(before.id)).find((l) => l.id === before.id);
  switch (a.op) {
    case 'delete':
      return { applied: now === undefined };
    case 'extend':
      return now && (now.exp_date?.ms ?? 0) > (before.exp_date?.ms ?? 0)
        ? { applied: true, line: now }
        : { applied: false };
    case 'upgrade':
      return now && now.connections === a.connections && before.connections !== a.connections
        ? { applied: true, line: now }
        : { applied: false };
    case 'unsuspend':
      return now?.enabled ? { applied: true, line: now } : { applied: false };
  }
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BalanceSeen } from '../domain/balance-drift';
import type { BalanceMemory } from '../services/balance-watch';
import { writeFileAtomic } from './atomic-file';

/** Beside the journal in the data directory: the last balance seen per account id. */
export const balancesPath = (dataDir: string): string => join(dataDir, 'balances.json');

type Accounts = Record<string, { balance: number; at: string }>;

const errText = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/**
 * `{"version":1,"accounts":{"<account id>":{"balance":1200,"at":"<ISO time>"}}}`, rewritten whole and
 * atomically. It only remembers what the server said: a file that cannot be read is named and
 * left as it is (the drift check is off until it is removed or readable), never fatal; an entry of
 * another shape is as good as none.
 */
export function fileBalances(path: string): BalanceMemory {
  const load = (): { accounts: Accounts } | { problem: string } => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { accounts: {} };
      return { problem: `${path} could not be read (${errText(err)}): balance drift is not checked` };
    }
    try {
      const json = JSON.parse(text) as { version?: unknown; accounts?: unknown };
      if (json?.version !== 1 || typeof json.accounts !== 'object' || json.accounts === null)
        throw new Error('not a balances file');
      return { accounts: json.accounts as Accounts };
    } catch (err) {
      return {
        problem: `${path} is not a balances file (${err instanceof SyntaxError ? 'not JSON' : (err as Error).message}): balance drift is not checked until it is removed`,
      };
    }
  };
  // What could not be written, kept for this process: a drift is then said once by it, not again at
  // every read judged from the old balance the file still holds (the file stays named).
  const unwritten = new Map<string, BalanceSeen>();
  return {
    read(targetId) {
      const got = load();
      if ('problem' in got) return { seen: null, problem: got.problem };
      const e = got.accounts[targetId];
      const at = typeof e?.at === 'string' ? Date.parse(e.at) : Number.NaN;
      const ok = e && typeof e.balance === 'number' && Number.isFinite(e.balance) && Number.isFinite(at);
      const kept = unwritten.get(targetId);
      if (kept && !(ok && at > kept.at)) return { seen: kept, problem: null };
      return { seen: ok ? ({ balance: e.balance, at } satisfies BalanceSeen) : null, problem: null };
    },
    write(targetId, seen) {
      const got = load();
      if ('problem' in got) return got.problem;
      const accounts = {
        ...got.accounts,
        [targetId]: { balance: seen.balance, at: new Date(seen.at).toISOString() },
      };
      try {
        writeFileAtomic(path, `${JSON.stringify({ version: 1, accounts }, null, 2)}\n`);
        unwritten.delete(targetId);
        return null;
      } catch (err) {
        unwritten.set(targetId, seen);
        return `${path} could not be written (${errText(err)}): the balance is remembered by this run only`;
      }
    },
  };
}

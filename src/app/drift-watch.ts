import type { BalanceMemory, BalanceWatch } from '../services/balance-watch';
import type { IntentLog } from '../services/changes/intent-log';
import type { Journal } from '../services/changes/journal';
import { sameServiceAs } from './account-id';

/** An account's files as either front-end holds them (the store's deps, a command's services). */
interface DriftWatchFiles {
  readonly target: { readonly id: string };
  readonly balances?: BalanceMemory | null;
  readonly journal?: Journal | null;
  readonly intents?: IntentLog | null;
  readonly now?: () => number;
}

/**
 * The one drift watch (services/balance-watch.ts) over an account's files, for the screens and the
 * commands alike; none without the balance memory (the drift is then not checked). `busy`: a change
 * of this process that the intent log does not show (the app's journal writes still waiting).
 */
export function driftWatchOf(files: DriftWatchFiles, busy?: () => string | null): BalanceWatch | null {
  if (!files.balances) return null;
  return {
    balances: files.balances,
    targetId: files.target.id,
    sameService: sameServiceAs(files.target.id),
    journal: files.journal ?? null,
    intents: files.intents ?? null,
    now: files.now ?? Date.now,
    ...(busy ? { busy } : {}),
  };
}

/**
 * The balance's selectors: what every place that shows the balance says, and what a change is judged
 * against. Apart from selectors.ts (which exports them with the rest) so that a slice judging by the
 * balance (renewals-slice.ts) imports them without a circle through selectors.ts.
 */
import { type BalanceShown, balanceToJudge } from '../present/balance';
import type { AppState } from './app-store';
import { failedLast, loaded } from './types';

/** The balance shown (the last one read, or the last reply's), undefined before the first read. */
export const selectBalance = (s: Pick<AppState, 'account'>) => loaded(s.account)?.credits;

/**
 * The balance shown may no longer be the service's: a read of it failed since (or is being made again
 * after failing), or the service cannot be reached (a job paused for it). Said beside the number.
 */
export const selectBalanceStale = (s: Pick<AppState, 'account' | 'bulk'>) =>
  failedLast(s.account) || Boolean(s.bulk?.paused);

/** The last `selectBalanceShown`, with what it was made from. */
let shownKept: { credits: number; stale: boolean; asOf: number | null; shown: BalanceShown } | null = null;

/**
 * The balance as every place that shows it says it (the header, the change and bulk dialogs, the
 * account screen): the number, whether it is stale, and as of when; undefined before the first read.
 * The same object while those are the same (a component may select it).
 */
export function selectBalanceShown(
  s: Pick<AppState, 'account' | 'bulk' | 'balanceAt'>,
): BalanceShown | undefined {
  const credits = selectBalance(s);
  if (credits === undefined) return undefined;
  const stale = selectBalanceStale(s);
  const asOf = s.balanceAt;
  if (shownKept?.credits !== credits || shownKept.stale !== stale || shownKept.asOf !== asOf)
    shownKept = { credits, stale, asOf, shown: { credits, stale, asOf } };
  return shownKept.shown;
}

/**
 * The balance a change is judged against (what is affordable, the total against it): the balance
 * shown while it is the service's word, else undefined (not known: said so, never judged by an older
 * balance). The bulk preview's and its start's (bulk-slice.ts `bulkBalance`).
 */
export const selectBalanceToJudge = (s: Pick<AppState, 'account' | 'bulk' | 'balanceAt'>) =>
  balanceToJudge(selectBalanceShown(s));

/**
 * A balance shown that judges nothing now (`balanceToJudge` gives none from it: it is stale): places
 * say "not known now" beside its number rather than judge by it (the change dialog's balance, the
 * account screen's runway, the renewals summary). Asked here, never worked out again from `stale`.
 */
export const isUnjudged = (b: BalanceShown | undefined): boolean =>
  b !== undefined && balanceToJudge(b) === undefined;

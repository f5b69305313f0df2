import { countLines } from '../services/account';
import { type DriftReport, readAccountToJudge } from '../services/balance-watch';
import { describeError } from '../services/describe-error';
import type { GetState, SetState, StoreDeps } from './deps';
import { storeWatch } from './runway-slice';
import { type Account, failedLast, type Load, loaded, type StatusCounts, type Target } from './types';

export interface SessionSlice {
  readonly target: Target;
  readonly readOnly: boolean;
  readonly account: Load<Account>;
  /** When the balance shown was last the service's word (a read, or a change's reply), or null:
   *  what a stale balance is said "as of" (store/selectors.ts `selectBalanceShown`). */
  readonly balanceAt: number | null;
  /** Per-status and per-type counts for the account summary (totalHits of filtered queries). */
  readonly counts: Load<StatusCounts>;
  loadAccount: () => Promise<void>;
  loadCounts: () => Promise<void>;
  /**
   * A change's reply said the balance after its charge: shown at once. During a job only a fall is
   * taken (replies of requests sent together may arrive out of order); the job's end reads it again.
   * A reply that says the balance shown is the service's word again as of that reply (`balanceAt`):
   * one saying the same balance too (a stale one is current again).
   */
  balanceSeen: (credits: number) => void;
  /** The account as the change service read it (the balance before a job): the header shows it. */
  accountRead: (account: Account) => void;
  /** A single change's reply said the balance after it: taken as it is (no job is running). */
  balanceAfter: (credits: number) => void;
}

export function createSessionSlice(set: SetState, get: GetState, deps: StoreDeps): SessionSlice {
  let accountSeq = 0;
  const now = deps.now ?? Date.now;
  let countsSeq = 0;
  // The drift judgement waits for the journal's first read, made in chunks (a long journal read at
  // once blocked the first frame and the keys for seconds); until then no verdict is shown. The
  // judgements are made in the order of the reads, each as of its own read (balance-watch.ts).
  let journalRead = !deps.journal?.readAhead;
  let waiting = 0;
  let turns: Promise<void> = Promise.resolve();
  const judgeInTurn = (judge: () => DriftReport | null) => {
    const judged = () => {
      const drift = judge();
      if (drift) get().balanceJudged(drift);
    };
    if (journalRead && waiting === 0) return judged();
    waiting++;
    turns = turns
      .then(async () => {
        if (!journalRead) await deps.journal!.readAhead!();
        journalRead = true;
      })
      .then(judged)
      .catch((err) => deps.logError?.('balance drift', err))
      .finally(() => {
        waiting--;
      });
  };
  return {
    target: deps.target,
    readOnly: deps.readOnly ?? false,
    account: { status: 'idle' },
    balanceAt: null,
    counts: { status: 'idle' },

    async loadAccount() {
      const seq = ++accountSeq;
      const prev = get().account;
      set({
        account: {
          status: 'loading',
          ...('data' in prev && prev.data ? { data: prev.data } : {}),
          // A read again after a failure: the data kept is older than that failure (the bulk
          // preview does not judge a job by it: bulk-slice.ts `bulkBalance`).
          ...(failedLast(prev) ? { afterError: true } : {}),
        },
      });
      try {
        const { account: data, judge } = await readAccountToJudge(deps.client, storeWatch(deps, get));
        if (seq === accountSeq) set({ account: { status: 'ready', data }, balanceAt: now() });
        // Judged for drift even when a newer read owns the screen: a drift is said once, so never dropped.
        judgeInTurn(judge);
      } catch (err) {
        if (seq === accountSeq)
          set({
            account: {
              status: 'error',
              error: describeError(err),
              ...('data' in prev && prev.data ? { data: prev.data } : {}),
            },
          });
      }
    },

    // A balance a change's reply or the change service gives is newer than any account read still
    // on its way (sent before it): such a read, landing after, must not put an older balance back.
    balanceSeen(credits) {
      const a = get().account;
      // A higher one is older than the balance shown (a reply that came in late): it says nothing of it.
      if (!('data' in a) || !a.data || credits > a.data.credits) return;
      accountSeq++;
      set({ account: { status: 'ready', data: { ...a.data, credits } }, balanceAt: now() });
    },

    accountRead(account) {
      accountSeq++;
      set({ account: { status: 'ready', data: account }, balanceAt: now() });
    },

    balanceAfter(credits) {
      const data = loaded(get().account);
      if (!data) return;
      accountSeq++;
      set({ account: { status: 'ready', data: { ...data, credits } }, balanceAt: now() });
    },

    async loadCounts() {
      const seq = ++countsSeq;
      set({ counts: { status: 'loading' } });
      try {
        const data = await countLines(deps.client, (deps.now ?? Date.now)());
        if (seq === countsSeq) set({ counts: { status: 'ready', data } });
      } catch (err) {
        if (seq === countsSeq) set({ counts: { status: 'error', error: describeError(err) } });
      }
    },
  };
}

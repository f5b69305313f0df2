import { describeError } from '../services/describe-error';
import { countExpired } from '../services/expired-count';
import type { GetState, SetState, StoreDeps } from './deps';
import type { Account, Load, StatusCounts, Target } from './types';

export interface SessionSlice {
  readonly target: Target;
  readonly readOnly: boolean;
  readonly account: Load<Account>;
  /** Per-status and per-type counts for the account summary (totalHits of filtered queries). */
  readonly counts: Load<StatusCounts>;
  loadAccount: () => Promise<void>;
  loadCounts: () => Promise<void>;
  /**
   * A change's reply said the balance after its charge: shown at once. During a job only a fall is
   * taken (replies of requests sent together may arrive out of order); the job's end reads it again.
   */
  balanceSeen: (credits: number) => void;
}

export function createSessionSlice(set: SetState, get: GetState, deps: StoreDeps): SessionSlice {
  let accountSeq = 0;
  let countsSeq = 0;
  return {
    target: deps.target,
    readOnly: deps.readOnly ?? false,
    account: { status: 'idle' },
    counts: { status: 'idle' },

    async loadAccount() {
      const seq = ++accountSeq;
      const prev = get().account;
      set({ account: { status: 'loading', ...('data' in prev && prev.data ? { data: prev.data } : {}) } });
      try {
        const data = await deps.client.me();
        if (seq === accountSeq) set({ account: { status: 'ready', data } });
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

    balanceSeen(credits) {
      const a = get().account;
      if (!('data' in a) || !a.data || credits >= a.data.credits) return;
      set({ account: { ...a, data: { ...a.data, credits } } });
    },

    async loadCounts() {
      const seq = ++countsSeq;
      set({ counts: { status: 'loading' } });
      const total = async (q: Parameters<StoreDeps['client']['listLines']>[0]) =>
        (await deps.client.listLines({ ...q, limit: 1 })).totalHits;
      try {
        const [all, active, suspended, expiring, premium, trial] = await Promise.all([
          total({}),
          total({ status: 'active' }),
          total({ status: 'suspended' }),
          total({ status: 'expiring' }),
          total({ type: 'premium' }),
          total({ type: 'trial' }),
        ]);
        const expired = await countExpired(deps.client, all, (deps.now ?? Date.now)()).catch(() => null);
        if (seq === countsSeq)
          set({
            counts: { status: 'ready', data: { all, active, suspended, expiring, premium, trial, expired } },
          });
      } catch (err) {
        if (seq === countsSeq) set({ counts: { status: 'error', error: describeError(err) } });
      }
    },
  };
}

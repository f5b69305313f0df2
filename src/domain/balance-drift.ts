/**
 * Balance drift: the journal knows what this machine spent, the server knows the balance. Between
 * two reads of the balance, what this machine's applied changes charged explains its fall; any other
 * difference (another device, a panel, a refund, a top-up) is drift, said once with its amount.
 * Pure: the journal's entries, the last balance seen and the new one in; a verdict and the balance to
 * remember out.
 */
import { SPENDS } from './bulk';
import type { ChangeOp } from './change-rules';
import { credits } from './format';

/** The balance as last read, and when (this machine's clock, as the journal's entries are timed). */
export interface BalanceSeen {
  readonly balance: number;
  readonly at: number;
}

/** What the judge reads of a journal entry (services/changes/journal.ts). */
export interface SpendEntry {
  readonly opId?: string;
  readonly time: string;
  readonly operation: ChangeOp;
  readonly outcome: 'applied' | 'rejected' | 'unknown' | 'not applied' | 'not sent';
  readonly deducedCredits: number | null;
}

export type DriftVerdict =
  /** Nothing remembered for this account: the balance is remembered from now on. */
  | { readonly kind: 'first' }
  /** The journal explains the move (or there was none). */
  | { readonly kind: 'steady'; readonly explained: number }
  /**
   * The balance moved by `difference` more than the journal explains (negative: less is left than
   * this machine's changes account for; positive: more). Said once: the next read judges from here.
   */
  | {
      readonly kind: 'drift';
      readonly difference: number;
      readonly expected: number;
      readonly explained: number;
      readonly since: number;
    }
  /**
   * Not judged: a change of this machine is in flight or its outcome unknown (its charge may be in
   * the balance or not yet), or an applied change's charge was never learnt. Never called drift.
   */
  | { readonly kind: 'unsure'; readonly why: string };

interface DriftJudgement {
  readonly verdict: DriftVerdict;
  /** The balance to remember, or null to keep the one remembered (the next read judges from it). */
  readonly remember: BalanceSeen | null;
}

/**
 * Judges a read of the balance: `readFrom`..`readTo` is when the request was out (the balance may
 * include a change journaled meanwhile, or not); `busy` names a change of this machine open now
 * (in flight, unknown, a journal entry not yet written), or is null.
 */
export function judgeDrift(
  seen: BalanceSeen | null,
  entries: readonly SpendEntry[],
  balance: number,
  read: { readonly from: number; readonly to: number },
  busy: string | null,
  /**
   * This machine's entries for the same service under another API key: the spec lets one account
   * hold several keys (one per environment, a key rotated), so they may be this account's charges.
   * A move they explain to the credit is not called drift.
   */
  sameService: readonly SpendEntry[] = [],
): DriftJudgement {
  if (busy) return { verdict: { kind: 'unsure', why: busy }, remember: null };
  if (!seen) return { verdict: { kind: 'first' }, remember: { balance, at: read.from } };
  let explained = 0;
  for (const { began, last } of byOperation(entries)) {
    if (!(began > seen.at)) continue;
    if (began > read.from && began <= read.to)
      return {
        verdict: { kind: 'unsure', why: 'a change was journaled while the balance was read' },
        remember: null,
      };
    if (began > read.to) continue;
    // No change is open (busy says so): an outcome still unknown is one nobody checks any more (set
    // aside); like a charge never learnt, it is not drift, and the check starts again from here.
    if (last.outcome === 'unknown')
      return {
        verdict: { kind: 'unsure', why: 'a change of this machine was left with an unknown outcome' },
        remember: { balance, at: read.from },
      };
    if (last.outcome !== 'applied' || !SPENDS.has(last.operation)) continue;
    if (last.deducedCredits === null)
      // Its charge will never be known better: judged from this balance on, not called drift.
      return {
        verdict: { kind: 'unsure', why: 'an applied change of this machine has no known charge' },
        remember: { balance, at: read.from },
      };
    explained += last.deducedCredits;
  }
  const expected = seen.balance - explained;
  const now = { balance, at: read.from };
  if (balance === expected) return { verdict: { kind: 'steady', explained }, remember: now };
  const other = otherKeysSpent(sameService, seen.at, read);
  if (other.some((spent) => spent > 0 && balance === expected - spent))
    return {
      verdict: {
        kind: 'unsure',
        why: "explained by this machine's changes under another API key of this service",
      },
      remember: now,
    };
  return {
    verdict: { kind: 'drift', difference: balance - expected, expected, explained, since: seen.at },
    remember: now,
  };
}

/** One operation is one charge: its last entry says its outcome, its first when it began. */
function byOperation(entries: readonly SpendEntry[]): Iterable<{ began: number; last: SpendEntry }> {
  const ops = new Map<string, { began: number; last: SpendEntry }>();
  entries.forEach((e, i) => {
    const key = e.opId ?? `#${i}`;
    const t = Date.parse(e.time);
    const had = ops.get(key);
    ops.set(key, { began: had ? Math.min(had.began, t) : t, last: e });
  });
  return ops.values();
}

/**
 * What this machine's applied changes under other keys of the service charged since `since`: before
 * the read, and with those journaled during it (their charge may be in the balance or not).
 */
function otherKeysSpent(
  entries: readonly SpendEntry[],
  since: number,
  read: { readonly from: number; readonly to: number },
): number[] {
  let before = 0;
  let during = 0;
  for (const { began, last: e } of byOperation(entries)) {
    if (!(began > since) || began > read.to) continue;
    if (e.outcome !== 'applied' || !SPENDS.has(e.operation) || e.deducedCredits === null) continue;
    if (began > read.from) during += e.deducedCredits;
    else before += e.deducedCredits;
  }
  return [before, before + during];
}

/** "the balance moved by −50 credits that no change from this machine explains". */
export function driftText(difference: number): string {
  const sign = difference > 0 ? '+' : '−';
  return `the balance moved by ${sign}${credits(Math.abs(difference))} that no change from this machine explains`;
}

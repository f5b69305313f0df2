/**
 * Reconciliation that needs proof. After a request whose outcome is unknown, a line is "applied" or
 * "not applied" only on positive evidence from the server; everything else stays unknown.
 *
 * Two witnesses: the line as the server lists it now (changed, unchanged, or not found — which proves
 * nothing), and, for credit-spending jobs, the balance. The balance's fall since the job started,
 * less what the server's replies already accounted for, is what the checked lines cost together
 * (the "residual"). A line is proven not applied when it shows no change and the residual is fully
 * explained by the other lines; it is applied when it shows the change. The balance witness assumes
 * nothing else spent or topped up the account meanwhile: if something did, the residual no longer adds
 * up and the verdicts stay unknown rather than guess (a top-up that exactly offsets a charge is the one
 * case this cannot see; docs/RELIABILITY.md says so).
 */
import { type BulkJob, type BulkLine, type ChargeSource, OPEN, SPENDS } from './bulk';

/** What the server shows for one line, gathered by the store (`services/changes/evidence.ts`). */
export type Evidence =
  | { readonly kind: 'changed' }
  | { readonly kind: 'unchanged' }
  /** Not found by any lookup: proves nothing (search may ignore ids, or lag). */
  | { readonly kind: 'missing' };

export interface Verdict {
  readonly id: string;
  readonly state: 'done' | 'failed' | 'unknown';
  readonly detail: string;
  readonly deducedCredits?: number;
  readonly charge?: ChargeSource;
  readonly provenNotApplied?: boolean;
}

const CHECKED = 'checked with the server after an unknown outcome';

/**
 * A check that sees no change proves only "not yet": a service (or the upstream behind a proxy that
 * gave up) may apply a request long after the client stopped waiting. "Not applied" from a check is
 * said only once the line has shown no change for the hold window after its request left — the
 * assumption, documented, that a service applies a request within that time or never.
 */
export interface Hold {
  readonly now: number;
  readonly holdMs: number;
}

/** How a line held in its window is said, and the one test of it. */
const NOT_YET = 'no change seen yet';
export const isNotYet = (l: BulkLine): boolean =>
  l.state === 'unknown' && (l.detail ?? '').startsWith(NOT_YET);

/** The default hold window: 10 minutes. */
export const DEFAULT_HOLD_MS = 10 * 60_000;

/** When the line's request left (written down before it did); the job's start for older records. */
function sentAtOf(job: BulkJob, l: BulkLine): number {
  return l.sentAt ?? (Date.parse(job.createdAt) || 0);
}

const clock = (ms: number) => new Date(ms).toTimeString().slice(0, 8);
const span = (ms: number) =>
  ms < 120_000 ? `${Math.max(0, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} minutes`;

/** Until the hold window has passed, a line whose check shows nothing has "no change seen yet". */
export function heldUntil(job: BulkJob, l: BulkLine, hold: Hold | undefined): number | null {
  if (!hold) return null;
  const until = sentAtOf(job, l) + hold.holdMs;
  return hold.now < until ? until : null;
}

/** The balance's fall not accounted for by the server's replies; null when the balance can't judge. */
function residualOf(job: BulkJob, balanceNow: number | null): number | null {
  if (job.balanceBefore == null || balanceNow == null) return null;
  let known = 0;
  for (const l of job.lines) if (l.state === 'done' && l.charge === 'reply') known += l.deducedCredits ?? 0;
  const residual = job.balanceBefore - balanceNow - known;
  // Less than nothing: the account was topped up (or refunded) meanwhile; the balance can't judge.
  return residual >= 0 ? residual : null;
}

/** Splits `total` over lines in proportion to their quoted costs (largest remainder, whole credits). */
export function shares(total: number, lines: readonly BulkLine[]): Map<string, number> {
  const weights = lines.map((l) => Math.max(0, l.cost ?? 0));
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = lines.map((_, i) => (sum > 0 ? (total * weights[i]!) / sum : total / lines.length));
  const out = raw.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return new Map(lines.map((l, i) => [l.id, out[i]!]));
}

/**
 * Verdicts for the job's open lines that have evidence, and the charge of every line confirmed by a
 * check (recomputed each time: it depends on the whole job). Lines without evidence stay as they are.
 */
export function judge(
  job: BulkJob,
  evidence: ReadonlyMap<string, Evidence>,
  balanceNow: number | null,
  hold?: Hold,
): Verdict[] {
  const open = job.lines.filter((l) => OPEN.has(l.state));
  const withEvidence = open.filter((l) => evidence.has(l.id));
  const kind = (l: BulkLine) => evidence.get(l.id)!.kind;
  /** "Not applied" once the hold window has passed; "no change seen yet" before. */
  const notApplied = (l: BulkLine, why: string): Omit<Verdict, 'id'> => {
    const until = heldUntil(job, l, hold);
    if (until !== null)
      return {
        state: 'unknown',
        detail: `${NOT_YET} (checked ${clock(hold!.now)}, ${span(hold!.now - sentAtOf(job, l))} after sending; checked again until ${clock(until).slice(0, 5)})`,
      };
    const after = hold ? `no change ${span(hold.now - sentAtOf(job, l))} after sending; ` : '';
    return { state: 'failed', detail: `not applied (${after}${why})`, provenNotApplied: true };
  };
  if (!SPENDS.has(job.op)) {
    // Free operations: the line alone decides; nothing is charged either way.
    return withEvidence.map((l) =>
      kind(l) === 'changed'
        ? { id: l.id, state: 'done', detail: `applied (${CHECKED})` }
        : kind(l) === 'unchanged'
          ? { id: l.id, ...notApplied(l, CHECKED) }
          : {
              id: l.id,
              state: 'unknown',
              detail: 'still unknown: the line was not found, which proves nothing',
            },
    );
  }
  const residual = residualOf(job, balanceNow);
  const prior = job.lines.filter((l) => l.state === 'done' && l.charge !== undefined && l.charge !== 'reply');
  const changed = withEvidence.filter((l) => kind(l) === 'changed');
  const rest = withEvidence.filter((l) => kind(l) !== 'changed');
  const verdicts = new Map<string, Verdict>();
  const settle = (l: BulkLine, v: Omit<Verdict, 'id'>) => verdicts.set(l.id, { id: l.id, ...v });

  if (residual === null) {
    for (const l of changed)
      settle(l, {
        state: 'done',
        detail: `applied (${CHECKED}); charged, amount unknown`,
        charge: 'unknown',
      });
    for (const l of rest)
      settle(l, {
        state: 'unknown',
        detail: 'still unknown: the balance could not be compared, so no change on the line proves nothing',
      });
    return [...verdicts.values()];
  }

  if (residual === 0) {
    // Nothing was charged for the checked lines: a line showing no change was not applied.
    for (const l of changed) {
      if ((l.cost ?? 1) > 0)
        settle(l, {
          state: 'unknown',
          detail: 'still unknown: the line shows a change but the balance shows no charge',
        });
      else settle(l, { state: 'done', detail: `applied (${CHECKED})`, deducedCredits: 0, charge: 'balance' });
    }
    for (const l of rest) {
      // A line that costs nothing leaves no mark on the balance: not found, nothing proves it either way.
      if (kind(l) === 'missing' && l.cost === 0)
        settle(l, {
          state: 'unknown',
          detail:
            'still unknown: the line was not found, and a change that costs nothing leaves the balance as it was',
        });
      else
        settle(
          l,
          notApplied(
            l,
            `${CHECKED}: no charge on the balance${kind(l) === 'unchanged' ? ', no change on the line' : ''}`,
          ),
        );
    }
    return [...verdicts.values()];
  }

  const applied = [...prior, ...changed];
  const expected = applied.reduce((s, l) => s + (l.cost ?? Number.NaN), 0);
  const stillOpen = open.length - withEvidence.length;
  if (applied.length && expected === residual && stillOpen === 0) {
    // The balance's fall is exactly what the changed lines cost: the others were not charged (yet).
    for (const l of rest)
      settle(l, notApplied(l, `${CHECKED}: the balance's fall is what the other lines cost`));
  } else {
    for (const l of rest)
      settle(l, {
        state: 'unknown',
        detail: `still unknown: the balance fell by ${residual} credits that the lines shown do not explain`,
      });
  }
  const unresolved = stillOpen + rest.filter((l) => verdicts.get(l.id)?.state === 'unknown').length;
  // A fall larger than everything this job's checked lines could cost is not all theirs: another
  // client spent too. Its share is never counted as this job's charge.
  const beyond = Number.isFinite(expected) && residual > expected;
  const amounts = unresolved === 0 && applied.length && !beyond ? shares(residual, applied) : null;
  for (const l of applied) {
    const amount = amounts?.get(l.id);
    const charge: ChargeSource =
      amount === undefined ? 'unknown' : applied.length === 1 ? 'balance' : 'share';
    settle(l, {
      state: 'done',
      detail:
        amount === undefined
          ? `applied (${CHECKED}); charged, amount unknown${beyond ? ` (the balance fell ${residual - expected} credits more than this job's lines cost: another client spent too)` : ''}`
          : `applied (${CHECKED}); charge from the balance${charge === 'share' ? ' (shared with other checked lines)' : ''}`,
      ...(amount === undefined ? {} : { deducedCredits: amount }),
      charge,
    });
  }
  return [...verdicts.values()];
}

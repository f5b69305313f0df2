/**
 * The journal as the change service writes it: one entry per operation (`opId`), written again only
 * when its outcome or what it says of the charge changes — by this process or a later one, the
 * journal itself being read first. A write that fails is retried (JournalWriter) and said.
 */
import type { Line, LineListItem } from '../../api/contract';
import { type BulkJob, type BulkLine, checkedNotApplied, SPENDS } from '../../domain/bulk';
import { type Journal, type JournalEntry, type JournalOutcome, JournalWriter } from './journal';
import { auditOf } from './journal-audit';

/** What the journal says of a line's state (null: nothing to journal yet). */
const journalOutcomeOf = (l: BulkLine): JournalOutcome | null =>
  l.state === 'done'
    ? 'applied'
    : l.state === 'unknown'
      ? 'unknown'
      : l.state === 'failed'
        ? l.notSent
          ? 'not sent'
          : checkedNotApplied(l)
            ? 'not applied'
            : 'rejected'
        : null;

export interface JournalRecorder {
  /** Journals a line's outcome (a settled or unknown line), unless the journal already says it. */
  record(job: BulkJob, l: BulkLine, bulk: boolean, server?: Line | LineListItem): void;
  /** Entries not yet on disk. */
  waiting(): number;
  flush(): void;
  stop(): void;
}

export function journalRecorder(
  deps: {
    readonly journal: Journal;
    readonly now: () => number;
    readonly target: { readonly id: string; readonly label: string };
    readonly logError?: ((context: string, err: unknown) => void) | undefined;
  },
  on: { waiting: (n: number) => void; failed: (err: unknown, waiting: number) => void },
): JournalRecorder {
  const { now, target } = deps;
  const journal = new JournalWriter(
    deps.journal,
    (err, waiting) => {
      deps.logError?.('journal', err);
      on.failed(err, waiting);
    },
    () => on.waiting(0),
  );
  /**
   * What was last journaled per operation: its outcome and what it said of the charge. Seeded from
   * the journal itself on first use, so a later process (the next start, `linedesk pending`) checking
   * the same job adds nothing either: a check that leaves a line unknown, or a recovery that finds a
   * line settled as already written, writes no second entry. One entry per operation, unless its
   * outcome or its charge changed.
   */
  const journaled = new Map<string, string>();
  let seeded = false;
  const said = (e: Pick<JournalEntry, 'outcome' | 'deducedCredits' | 'charge' | 'detail'>) =>
    e.outcome === 'unknown'
      ? 'unknown'
      : `${e.outcome}|${e.deducedCredits ?? ''}|${e.charge ?? ''}|${e.detail ?? ''}`;
  const lastJournaled = (opId: string): string | undefined => {
    if (!seeded && deps.journal) {
      seeded = true;
      try {
        // In order: the last entry of an operation is what it says now.
        for (const e of deps.journal.read()) if (e.opId !== undefined) journaled.set(e.opId, said(e));
      } catch (err) {
        deps.logError?.('journal read', err);
      }
    }
    return journaled.get(opId);
  };
  const journalLine = (job: BulkJob, l: BulkLine, bulk: boolean, server?: Line | LineListItem) => {
    const outcome = journalOutcomeOf(l);
    if (!journal || !outcome) return;
    const opId = `${job.id}:${l.username}`;
    const detail =
      l.detail || bulk
        ? `${bulk ? `bulk ${job.id}` : ''}${bulk && l.detail ? ': ' : ''}${l.detail ?? ''}`
        : undefined;
    const saying = said({ outcome, deducedCredits: l.deducedCredits ?? null, charge: l.charge, detail });
    if (lastJournaled(opId) === saying) return;
    journaled.set(opId, saying);
    const bouquets = (l.body as { bouquets?: number[] } | undefined)?.bouquets;
    journal.append({
      opId,
      time: new Date(now()).toISOString(),
      target: job.target,
      ...(job.target === target.id ? { service: target.label } : {}),
      ...auditOf(job, l, outcome, server),
      operation: job.op,
      lineId: l.id.startsWith('new:') ? null : l.id,
      username: l.username,
      quotedCost: SPENDS.has(job.op) ? l.cost : null,
      estimate: job.op === 'extend',
      deducedCredits: l.deducedCredits ?? null,
      newBalance: l.newBalance ?? null,
      ...(l.charge ? { charge: l.charge } : {}),
      outcome,
      ...(l.settledAfterUnknown === 'by hand' ? { settledByHand: true as const } : {}),
      ...(detail !== undefined ? { detail } : {}),
      ...(bouquets?.length ? { bouquets } : {}),
    });
    on.waiting(journal.waiting);
  };
  return {
    record: journalLine,
    waiting: () => journal.waiting,
    flush: () => journal.flush(),
    stop: () => journal.stop(),
  };
}

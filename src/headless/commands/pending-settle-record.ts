/**
 * What of a settle's record reached the disk, as the command's change service wrote it. The service
 * goes on when the disk refuses a write (the journal's entry waits, retried; the intent log keeps the
 * job's file as it was, and says so only for a line it would offer to retry: `keptOnDisk`), so
 * `pending --settle` hands it the intent log and the journal noted, and says the verdict is kept, or
 * journaled, only when that write went through.
 */
import type { IntentLog } from '../../services/changes/intent-log';
import type { Journal, JournalEntry } from '../../services/changes/journal';

export interface SettleRecord {
  /** The intent log and the journal to hand the change service (null: none is kept). */
  readonly intents: IntentLog | null;
  readonly journal: Journal | null;
  /** Lines whose verdict settled by hand the intent log wrote. */
  readonly kept: ReadonlySet<string>;
  /** Lines whose verdict settled by hand the intent log refused, with the disk's error. */
  readonly refused: ReadonlyMap<string, unknown>;
  /** Jobs the intent log ended (their outcome is the journal's then). */
  readonly ended: ReadonlySet<string>;
  /** The journal's entries of verdicts settled by hand it wrote. */
  readonly journaled: readonly JournalEntry[];
  /**
   * The settle has said what is on disk: a journal that refused its last write is not tried again
   * (its refusal is thrown again, nothing written), so no later try (the command's own shutdown)
   * writes an entry, and ends a job, the settle said was not written.
   */
  close(): void;
}

export function settleRecord(files: {
  readonly intents: IntentLog | null;
  readonly journal: Journal | null;
}): SettleRecord {
  const kept = new Set<string>();
  const refused = new Map<string, unknown>();
  const ended = new Set<string>();
  const journaled: JournalEntry[] = [];
  const { intents, journal } = files;
  /** The journal's last refusal, while it has not written since (`close`). */
  let refusal: { readonly err: unknown } | undefined;
  let closed = false;
  return {
    intents: intents && {
      ...intents,
      line(jobId, l) {
        const byHand = l.settledAfterUnknown === 'by hand';
        try {
          intents.line(jobId, l);
        } catch (err) {
          if (byHand) refused.set(l.id, err);
          throw err;
        }
        if (byHand) kept.add(l.id);
      },
      end(jobId) {
        intents.end(jobId);
        ended.add(jobId);
      },
    },
    journal: journal && {
      ...journal,
      append(entry) {
        if (closed && refusal) throw refusal.err;
        try {
          journal.append(entry);
        } catch (err) {
          refusal = { err };
          throw err;
        }
        refusal = undefined;
        if (entry.settledByHand) journaled.push(entry);
      },
    },
    kept,
    refused,
    ended,
    journaled,
    close() {
      closed = true;
    },
  };
}

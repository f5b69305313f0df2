/**
 * `linedesk pending`'s one view of this account's jobs, from the run's one read of the intent log and
 * what the recovery (then `--wait`, or `--settle`) made of them.
 */
import type { BulkJob } from '../../domain/bulk';
import type { LogRead } from '../../services/changes/intent-log';
import type { Recovered } from '../../services/changes/service';

/**
 * This account's jobs as the run knows them, from its one read of the log: each as read, or as this
 * run left it (`known`: the recovery checked or offered it, or `--wait` checked it since). A job read
 * but not known since is one the recovery let be: held by another linedesk (its lines held), or
 * ended or gone meanwhile (nothing of it open).
 */
export interface Seen {
  readonly read: LogRead;
  readonly jobs: Map<string, BulkJob>;
  readonly known: Set<string>;
  /**
   * Jobs that left the intent log during `--wait` (set aside, or their file removed) with an outcome
   * still unknown: no longer checked, here or at any start, and never called known (setting a file
   * aside proves nothing of what the service did). `file`: where its file is now (null: not found).
   */
  readonly left: Map<string, { readonly job: BulkJob; readonly file: string | null }>;
}

export function seenOf(read: LogRead, recovered: readonly Recovered[], target: string): Seen {
  const jobs = new Map(read.jobs.filter((j) => j.target === target).map((j) => [j.id, j]));
  const known = new Set<string>();
  for (const { job } of recovered)
    if (jobs.has(job.id)) {
      jobs.set(job.id, job);
      known.add(job.id);
    }
  return { read, jobs, known, left: new Map() };
}

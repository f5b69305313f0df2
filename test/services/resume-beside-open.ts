/**
 * A resume's log beside another job's open change: `interruptedBesideOpen` writes both jobs, and
 * `nextStartOffers` reads what the next start offers of them.
 */
import type { ApiClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import { fileIntentLog } from '../../src/app/intent-file';
import type { BulkJob } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/**
 * On the log in `dir`: `job` begun and released (interrupted, as a resume finds it), and
 * 'job-another', another job of the account whose change of `line` was sent and is still open
 * (unknown), its charge still judged by its balance window (a balance of 1,000 before it).
 */
export function interruptedBesideOpen(dir: string, job: BulkJob, line: LineListItem) {
  const log = fileIntentLog(dir);
  log.begin(job);
  log.release(job.id);
  log.begin(
    extendJob('job-another', [jobLine(line, { state: 'unknown', sentAt: Date.now() })], {
      balanceBefore: 1_000,
    }),
  );
  log.release('job-another');
}

/** What the next start offers of the log in `dir` (read as another linedesk: this test's parent). */
export async function nextStartOffers(client: ApiClient, dir: string) {
  const next = createChangeService({
    client,
    target,
    intents: fileIntentLog(dir, { pid: process.ppid, start: null }),
    journal: memoryJournal(),
    sleep: async () => {},
  });
  return next.recoverIntents();
}

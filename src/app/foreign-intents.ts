import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ForeignJob, IntentLog } from '../services/changes/intent-log';
import { isForeignOf } from '../services/changes/ownership';
import { intentsDir } from './account-id';
import { fileIntentLog } from './intent-file';

/**
 * Open jobs recorded for the same service under another account id: a key changed since, another
 * profile on the same panel, or an earlier version that kept jobs per URL alone (the decision is
 * ownership.ts's). The change service decides whose they are (with the server's evidence); here they
 * are only found and, when told, moved.
 */
export function foreignIntents(
  dataDir: string,
  baseUrl: string,
  targetId: string,
  ours: IntentLog,
  /** The account ids of the other profiles on this service: their jobs are theirs, not looked at. */
  others: ReadonlySet<string> = new Set(),
): () => ForeignJob[] {
  const service = { baseUrl, targetId, others };
  return () => {
    let dirs: string[];
    // This account's own log is not another's: not read here (its reader reads it once).
    const own = basename(intentsDir(dataDir, targetId));
    try {
      dirs = readdirSync(dataDir).filter((n) => n.startsWith('intents-') && n !== own);
    } catch {
      return [];
    }
    // This account's open jobs, read only when one is moved in.
    let mine: ReadonlySet<string> | undefined;
    const found: ForeignJob[] = [];
    for (const name of dirs) {
      const dir = join(dataDir, name);
      const log = fileIntentLog(dir);
      for (const job of log.open()) {
        if (!isForeignOf(job.target, service)) continue;
        found.push({
          job,
          where: dir,
          heldElsewhere: log.heldElsewhere(job.id),
          adopt() {
            // Already moved once (a stop between the two steps): the copy left behind goes.
            mine ??= new Set(ours.open().map((j) => j.id));
            if (!mine.has(job.id)) ours.begin({ ...job, target: targetId });
            log.end(job.id);
          },
        });
      }
    }
    return found;
  };
}

/**
 * The recovery at start, beside the service's own check of its open jobs: jobs recorded under another
 * key or account of the same service (adopted only when the server shows this account every line
 * they name), and the lines an interrupted job never sent, looked up to be marked again.
 */
import type { LineListItem } from '../../api/contract';
import type { BulkJob } from '../../domain/bulk';
import { counted } from '../../domain/format';
import type { ServiceClient } from '../client';
import { lookupPasted } from '../paste-lookup';
import type { Notify } from './intent-damage';
import type { ForeignJob } from './intent-log';
import type { Recovered } from './service-types';

/**
 * Jobs recorded for this service under another account id are this account's only when the server
 * shows it every line they name (line ids are the service's own; an account sees only its lines):
 * then they are moved here and checked with the rest. Otherwise their lines are held — a line
 * whose change may have been applied is never changed again from here — and said, with where.
 */
export async function adoptForeign(
  deps: {
    readonly client: ServiceClient;
    readonly foreignIntents?: (() => readonly ForeignJob[]) | undefined;
    readonly logError?: ((context: string, err: unknown) => void) | undefined;
  },
  holdLines: (job: BulkJob, who: string, say?: boolean) => void,
  notify: Notify,
): Promise<void> {
  const showsEveryLine = (job: BulkJob) => showsEvery(deps, job);
  for (const f of deps.foreignIntents?.() ?? []) {
    if (f.heldElsewhere) {
      holdLines(f.job, f.heldElsewhere);
      continue;
    }
    if (await showsEveryLine(f.job)) {
      try {
        f.adopt();
        continue;
      } catch (err) {
        deps.logError?.('intent log', err);
      }
    }
    holdLines(f.job, 'an earlier change recorded under another key or account', false);
    notify(
      `An earlier ${f.job.op} recorded for this service under another key or account (${counted(f.job.lines.length, 'line')}: ${f.job.lines
        .slice(0, 3)
        .map((l) => l.username)
        .join(
          ', ',
        )}${f.job.lines.length > 3 ? '…' : ''}) is not this account's as far as the server shows: its lines are held, nothing is re-sent; it is kept in ${f.where}`,
      'error',
    );
  }
}

/** Whether the server shows this account every line the job names. */
async function showsEvery(
  deps: {
    readonly client: ServiceClient;
    readonly logError?: ((context: string, err: unknown) => void) | undefined;
  },
  job: BulkJob,
): Promise<boolean> {
  // A line being created has no id yet: its username, found here, is this account's.
  const keys = job.lines.map((l) => (l.id.startsWith('new:') ? l.username : l.id));
  if (!keys.length) return false;
  try {
    const { found } = await lookupPasted(deps.client, keys, {
      cancelled: () => false,
      progress: () => {},
      maxPages: 20,
    });
    return job.lines.every((l) => {
      const hit = found.get(l.id.startsWith('new:') ? l.username : l.id);
      return hit !== undefined && (l.id.startsWith('new:') ? hit.username === l.username : hit.id === l.id);
    });
  } catch (err) {
    deps.logError?.('foreign job', err);
    return false;
  }
}

/**
 * The marks an interrupted job was started from are gone with its process: its lines never sent are
 * looked up (so a mark holds the line as the server has it now), to be marked again, for a resume or
 * a new job of the user's choosing.
 */
export async function findUnsent(
  client: ServiceClient,
  jobs: readonly Recovered[],
  cancelled: () => boolean,
  logError?: (context: string, err: unknown) => void,
): Promise<LineListItem[]> {
  const ids = jobs.flatMap((r) =>
    r.job.lines.filter((l) => l.state === 'pending' && !l.id.startsWith('new:')).map((l) => l.id),
  );
  if (!ids.length) return [];
  try {
    const { found } = await lookupPasted(client, ids, {
      cancelled,
      progress: () => {},
      maxPages: 20,
    });
    return ids.flatMap((id) => (found.get(id)?.id === id ? [found.get(id)!] : []));
  } catch (err) {
    logError?.('marks of an interrupted job', err);
    return [];
  }
}

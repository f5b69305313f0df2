/**
 * A bulk job's lines read again just before it spends. A job planned from the marks starts from
 * each line as it was marked, perhaps hours ago; a check that cannot judge by the balance (its window
 * closed) compares the line with that `before`, so a change another client made since the marking
 * would read as this job's. Read again, each line starts from the server's state now: one whose plan
 * stands gets that state as its `before` (what the intent log keeps, and the check compares with);
 * one whose plan changed, or that is not found, is not sent, saying why.
 */
import type { LineListItem } from '../../api/contract';
import { type BulkJob, type BulkLine, planChanged, toBulkLine } from '../../domain/bulk';
import { extendedExpiry } from '../../domain/estimate';
import type { ServiceClient } from '../client';
import { lookupPasted } from '../paste-lookup';

/** Lines read this long before the job starts (a script's lookup just now) are not read again. */
export const FRESH_FOR_MS = 60_000;

/** Whether a job's lines are read again before it sends: a bulk job's, unless read just now. */
export function needsReading(
  job: BulkJob,
  opts: { readonly bulk: boolean; readonly readAt: number | undefined; readonly nowMs: number },
): boolean {
  if (!opts.bulk || job.op === 'create' || job.op === 'trial') return false;
  if (opts.readAt !== undefined && opts.nowMs - opts.readAt <= FRESH_FOR_MS) return false;
  return job.lines.some((l) => l.state === 'pending' && !l.id.startsWith('new:'));
}

/**
 * The job with its pending lines as the server has them now (searches or one walk of the list,
 * whichever costs fewer requests: `lookupPasted`). Throws when the server cannot be asked (nothing
 * has been sent then); null when `cancelled` stopped the read (what it did not reach is not known).
 */
export async function readAgain(
  client: Pick<ServiceClient, 'listLines'>,
  job: BulkJob,
  opts: { readonly cancelled: () => boolean; readonly nowMs: number; readonly total?: number },
): Promise<BulkJob | null> {
  const ids = job.lines.filter((l) => l.state === 'pending' && !l.id.startsWith('new:')).map((l) => l.id);
  const { found } = await lookupPasted(client, ids, {
    cancelled: opts.cancelled,
    progress: () => {},
    ...(opts.total !== undefined ? { total: opts.total } : {}),
  });
  if (opts.cancelled()) return null;
  return {
    ...job,
    lines: job.lines.map((l) => {
      if (l.state !== 'pending' || l.id.startsWith('new:')) return l;
      const hit = found.get(l.id);
      return freshLine(job, l, hit?.id === l.id ? hit : null, opts.nowMs);
    }),
  };
}

/** One pending line against what the server shows now (null: not found). */
function freshLine(job: BulkJob, l: BulkLine, now: LineListItem | null, nowMs: number): BulkLine {
  if (!now)
    return {
      ...l,
      cost: 0,
      state: 'skipped',
      detail:
        'not sent: not found when read again before sending (deleted or moved since it was marked); nothing charged',
    };
  const before = toBulkLine(now).before;
  const why = planChanged(job.op, l.before, before);
  if (why)
    return {
      ...l,
      username: now.username,
      before,
      cost: 0,
      after: {},
      state: 'skipped',
      detail: `not sent: changed since it was marked (${why}); nothing charged: review it and run again`,
    };
  // An extend's check compares the line's expiry with its `before`: one read older than the marks'
  // (a search index behind the list they came from) would take a change since for this job's.
  if (job.op === 'extend' && !notEarlier(before, l.before))
    return {
      ...l,
      cost: 0,
      state: 'skipped',
      detail:
        'not sent: read again, its expiry was earlier than when it was marked, or could not be compared (the server’s search may lag); nothing charged: run it again',
    };
  // An extend's new expiry counts from the expiry now (one the server wrote unreadably: unknown).
  const after =
    job.op !== 'extend'
      ? l.after
      : before.expMs === null && before.expRaw
        ? {}
        : { expMs: extendedExpiry(before.expMs, job.months, nowMs) };
  return { ...l, username: now.username, before, after };
}

/**
 * Whether an expiry read again is the marks' own or a later one: expiries only move on (an extend);
 * an earlier one, or another one that cannot be read as a date, cannot be told from a stale read.
 */
function notEarlier(now: BulkLine['before'], was: BulkLine['before']): boolean {
  if (now.expMs !== null && was.expMs !== null) return now.expMs >= was.expMs;
  return now.expMs === was.expMs && (now.expRaw ?? null) === (was.expRaw ?? null);
}

/**
 * A job's lines read again just before it spends. A job planned from the marks (or a single change
 * from the line a screen showed) starts from each line as it was marked or shown, perhaps hours ago;
 * a check that cannot judge by the balance (its window closed) compares the line with that `before`,
 * so a change another client made since the marking would read as this job's. Read again, each line starts from the server's state now: one whose plan
 * stands gets that state as its `before` (what the intent log keeps, and the check compares with);
 * one whose plan changed, that is not found, or that the server sends in a form that does not read
 * (there, but not known as it is now: not "not found"), is not sent, saying why.
 */
import type { LineListItem } from '../../api/contract';
import { type BulkJob, type BulkLine, planChanged, toBulkLine } from '../../domain/bulk';
import { extendedExpiry } from '../../domain/estimate';
import type { ServiceClient } from '../client';
import { lookupPasted, resolveInPages, unreadableNames } from '../paste-lookup';
import { findLine } from './evidence';

type Since = 'marked' | 'shown' | 'looked up';

/** Lines read this long before the job starts (a script's lookup just now) are not read again. */
export const FRESH_FOR_MS = 60_000;

/**
 * Whether a job's lines are read again before it sends: any job's (bulk or single) that changes
 * existing lines, unless they were read just now (`readAt`: a screen's page or a script's lookup).
 */
export function needsReading(
  job: BulkJob,
  opts: { readonly readAt: number | undefined; readonly nowMs: number },
): boolean {
  if (job.op === 'create' || job.op === 'trial') return false;
  if (opts.readAt !== undefined && opts.nowMs - opts.readAt <= FRESH_FOR_MS) return false;
  return job.lines.some((l) => l.state === 'pending' && !l.id.startsWith('new:'));
}

/**
 * The job with its pending lines as the server has them now (searches or one walk of the list,
 * whichever costs fewer requests: `lookupPasted`; one line: `findLine`'s search by id, then by
 * username, and only when neither finds it the walk). Throws when the server cannot be asked (nothing
 * has been sent then); null when `cancelled` stopped the read (what it did not reach is not known).
 * `since`: how the lines were had, for the words of a line that changed since: marked (a bulk job),
 * shown (a single change from a screen) or looked up (a script's).
 * `seen`: each pending line as it now stands, with the server's line to show for it: null when not
 * found, or when read older than it was marked (a search that lags: not the line as it is now).
 */
export async function readAgain(
  client: Pick<ServiceClient, 'listLines'>,
  job: BulkJob,
  opts: {
    readonly cancelled: () => boolean;
    readonly nowMs: number;
    readonly total?: number;
    readonly since?: Since;
    readonly seen?: (l: BulkLine, server: LineListItem | null) => void;
  },
): Promise<BulkJob | null> {
  const pending = job.lines.filter((l) => l.state === 'pending' && !l.id.startsWith('new:'));
  const ids = pending.map((l) => l.id);
  let found: ReadonlyMap<string, LineListItem>;
  // Ids (lower case) met only as items that do not read: the line is there, just not readable.
  const unreadable = new Set<string>();
  // Ids (lower case) not met, but the list held items whose id or username did not read: any may be it.
  const unidentified = new Set<string>();
  if (pending.length === 1) {
    // One line: at most two searches; the walk only for a server whose search matches neither.
    const [one] = pending;
    const hit = await findLine(client, one!.id, one!.username);
    if (hit || opts.cancelled()) found = new Map(hit ? [[one!.id, hit]] : []);
    else {
      // What did not read is the walk's last pass's (a list walked again is read again from its start).
      const walk = await resolveInPages(client, ids, { cancelled: opts.cancelled });
      found = walk.found;
      for (const name of unreadableNames({ unreadable: walk.unreadItems })) unreadable.add(name);
      // One whose id or username does not read may be this line: not proven gone.
      if (walk.nameless) unidentified.add(one!.id.toLowerCase());
    }
  } else {
    const r = await lookupPasted(client, ids, {
      cancelled: opts.cancelled,
      progress: () => {},
      ...(opts.total !== undefined ? { total: opts.total } : {}),
    });
    found = r.found;
    // No page limit (a cancel returns below): nothing is unreached; what does not read is said so.
    for (const id of r.unreadable) unreadable.add(id.toLowerCase());
    for (const id of r.unidentified) unidentified.add(id.toLowerCase());
  }
  if (opts.cancelled()) return null;
  const since = opts.since ?? 'marked';
  return {
    ...job,
    lines: job.lines.map((l) => {
      if (l.state !== 'pending' || l.id.startsWith('new:')) return l;
      const hit = found.get(l.id);
      const id = l.id.toLowerCase();
      const server =
        hit?.id === l.id
          ? hit
          : hit
            ? null
            : unreadable.has(id)
              ? 'unreadable'
              : unidentified.has(id)
                ? 'unidentified'
                : null;
      const [fresh, shown] = freshLine(job, l, server, opts.nowMs, since);
      opts.seen?.(fresh, shown);
      return fresh;
    }),
  };
}

const NOT_FOUND = 'not sent: not found when read again before sending';

/** A line not sent because it was not found when read again (deleted or moved): a screen drops it. */
export const notFoundAgain = (l: BulkLine): boolean => l.state === 'skipped' && l.notSentAsRead === 'gone';

/**
 * A line a job did not send because, read again just before, it had changed since it was marked
 * (or read older than its marks): the job left it marked, to review and run again. Not one held for
 * another job, nor one no longer found (that leaves the marks), nor one its plan skipped (a trial).
 */
export const leftToReview = (l: BulkLine): boolean =>
  l.state === 'skipped' && !l.heldBack && l.notSentAsRead === 'changed';

/**
 * A line of an intent file an earlier version wrote, before `notSentAsRead` was kept: a line skipped
 * when read again says so only in its words (every such detail began "not sent:", and only those of
 * skipped lines did; "not found…" marked one gone). Read once, as the file is loaded; a line that has
 * the field, or a value this version does not know, keeps it / is read from the words the same way.
 */
export function asReadFromWords(l: BulkLine): BulkLine {
  if (l.state !== 'skipped' || l.heldBack) return l;
  if (l.notSentAsRead === 'changed' || l.notSentAsRead === 'gone') return l;
  const { notSentAsRead: _unknown, ...rest } = l;
  const d = l.detail ?? '';
  if (d.startsWith(NOT_FOUND)) return { ...rest, notSentAsRead: 'gone' };
  if (d.startsWith('not sent:')) return { ...rest, notSentAsRead: 'changed' };
  return rest;
}

/** A pending line not sent after reading it again: skipped, nothing charged, and why; no server line shown. */
function notSent(
  l: BulkLine,
  notSentAsRead: 'changed' | 'gone',
  detail: string,
): [BulkLine, LineListItem | null] {
  return [{ ...l, cost: 0, state: 'skipped', notSentAsRead, detail }, null];
}

/**
 * One pending line against what the server shows now (null: not found), and the server's line to
 * show for it (null: none, or one older than the line marked, never shown as the line now).
 */
function freshLine(
  job: BulkJob,
  l: BulkLine,
  now: LineListItem | 'unreadable' | 'unidentified' | null,
  nowMs: number,
  since: Since,
): [BulkLine, LineListItem | null] {
  // There, but sent in a form that does not read: not known as it is now, so not sent; not gone either
  // (it stays marked, to review and run again).
  if (now === 'unreadable')
    return notSent(
      l,
      'changed',
      'not sent: read again, the server sent it in a form that does not read; nothing charged: run it again',
    );
  // Not among the lines that read, but the server sent some whose id or username did not read: it may
  // be one of them, so not known gone either (it stays marked, to review and run again).
  if (now === 'unidentified')
    return notSent(
      l,
      'changed',
      'not sent: read again, it may be one of the lines the server sent in a form that does not read; nothing charged: run it again',
    );
  if (!now)
    return notSent(l, 'gone', `${NOT_FOUND} (deleted or moved since it was ${since}); nothing charged`);
  const before = toBulkLine(now).before;
  // An extend's check compares the line's expiry with its `before`: one read older than the marks'
  // (a search index behind the list they came from) would take a change since for this job's. Nor is
  // that line shown for it (a screen would take it, read just now, as the start of a change tried again).
  if (job.op === 'extend' && !notEarlier(before, l.before))
    return notSent(
      l,
      'changed',
      'not sent: read again, its expiry was earlier than when it was marked, or could not be compared (the server’s search may lag); nothing charged: run it again',
    );
  const why = planChanged(job.op, l.before, before);
  if (why)
    return [
      {
        ...l,
        username: now.username,
        before,
        cost: 0,
        after: {},
        state: 'skipped',
        notSentAsRead: 'changed',
        detail: `not sent: changed since it was ${since} (${why}); nothing charged: review it and ${since === 'marked' ? 'run' : 'try'} again`,
      },
      now,
    ];
  // An extend's new expiry counts from the expiry now (one the server wrote unreadably: unknown).
  const after =
    job.op !== 'extend'
      ? l.after
      : before.expMs === null && before.expRaw
        ? {}
        : { expMs: extendedExpiry(before.expMs, job.months, nowMs) };
  return [{ ...l, username: now.username, before, after }, now];
}

/**
 * Whether an expiry read again is the marks' own or a later one: expiries only move on (an extend);
 * an earlier one, or another one that cannot be read as a date, cannot be told from a stale read.
 */
function notEarlier(now: BulkLine['before'], was: BulkLine['before']): boolean {
  if (now.expMs !== null && was.expMs !== null) return now.expMs >= was.expMs;
  return now.expMs === was.expMs && (now.expRaw ?? null) === (was.expRaw ?? null);
}

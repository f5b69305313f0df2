/**
 * The recovery at start, beside the service's own check of its open jobs: jobs recorded under another
 * key or account of the same service (adopted only when the server shows this account every line
 * they name), and the lines of an interrupted job to be marked again (never sent, or left marked to
 * review), looked up.
 */
import type { LineListItem } from '../../api/contract';
import type { BulkJob, BulkLine } from '../../domain/bulk';
import { linesNamed } from '../../domain/format';
import type { ServiceClient } from '../client';
import { describeError } from '../describe-error';
import { lookupPasted, unsettledText } from '../paste-lookup';
import { leftToReview } from './fresh-lines';
import type { Notify } from './intent-damage';
import { diskFix, type ForeignJob } from './intent-log';
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
  for (const f of deps.foreignIntents?.() ?? []) {
    if (f.heldElsewhere) {
      holdLines(f.job, f.heldElsewhere);
      continue;
    }
    const shown = await showsEvery(deps, f.job);
    /** Why the move into this account's log failed (the disk's error, with its path). */
    let unmoved = '';
    /** What to do about it (`diskFix`), said last. */
    let fix = '';
    if (shown === true) {
      try {
        f.adopt();
        continue;
      } catch (err) {
        deps.logError?.('intent log', err);
        unmoved = ` (${describeError(err)})`;
        const what = diskFix(err as NodeJS.ErrnoException | null, 'write');
        if (what) fix = `; ${what}, then start again`;
      }
    }
    holdLines(f.job, 'an earlier change recorded under another key or account', false);
    // Only what was proven is said: a line not reached, or a lookup that failed, proves nothing.
    const verdict =
      typeof shown === 'string'
        ? `could not be checked: ${shown}`
        : shown
          ? `is this account's but could not be moved into its intent log${unmoved}`
          : "is not this account's as far as the server shows";
    notify(
      `An earlier ${f.job.op} of ${linesNamed(f.job.lines.map((l) => l.username))} recorded for this service under another key or account ${verdict}: its lines are held, nothing is re-sent; it is kept in ${f.where}${fix}`,
      'error',
    );
  }
}

/** Pages the lookup at start walks at most (a list search settles most lines in one request each). */
export const LOOKUP_PAGES_AT_START = 20;

/**
 * Whether the server shows this account every line the job names: true, false (a line is proven not
 * shown: the whole list was read), or why it could not be told (a line the lookup did not reach within
 * its page limit, one listed in a form that does not read, or the lookup failed).
 */
async function showsEvery(
  deps: {
    readonly client: ServiceClient;
    readonly logError?: ((context: string, err: unknown) => void) | undefined;
  },
  job: BulkJob,
): Promise<boolean | string> {
  // A line being created has no id yet: its username, found here, is this account's.
  const keyOf = (l: BulkJob['lines'][number]) => (l.id.startsWith('new:') ? l.username : l.id);
  const keys = job.lines.map(keyOf);
  if (!keys.length) return false;
  try {
    const { found, unreached, unreadable, unidentified, nameless } = await lookupPasted(deps.client, keys, {
      cancelled: () => false,
      progress: () => {},
      maxPages: LOOKUP_PAGES_AT_START,
    });
    const shown = (l: BulkJob['lines'][number]) => {
      const hit = found.get(keyOf(l));
      return hit !== undefined && (l.id.startsWith('new:') ? hit.username === l.username : hit.id === l.id);
    };
    if (job.lines.every(shown)) return true;
    // One line proven absent settles it; else why the ones not shown are not known (one wording each).
    const far = new Set([...unreached, ...unreadable, ...unidentified]);
    if (job.lines.some((l) => !shown(l) && !far.has(keyOf(l)))) return false;
    const some = (list: readonly string[]) => {
      const of = new Set(list);
      return job.lines.some((l) => !shown(l) && of.has(keyOf(l)));
    };
    return some(unreadable)
      ? `one of its lines was ${unsettledText('unreadable')}`
      : some(unreached)
        ? `one of its lines was ${unsettledText('unreached', LOOKUP_PAGES_AT_START)}`
        : `one of its lines was ${unsettledText('unidentified', undefined, nameless)}`;
  } catch (err) {
    deps.logError?.('foreign job', err);
    return `the lookup failed (${describeError(err)})`;
  }
}

/** A line never sent that is marked again (not a line being created: it has no id yet). */
export const unsentToMarkAgain = (l: BulkLine): boolean => l.state === 'pending' && !l.id.startsWith('new:');

/** A job as the resume offer shows it: with its count of lines never sent (what Enter resumes). */
export const recoveredOf = (job: BulkJob): Recovered => ({
  job,
  unsent: job.lines.filter((l) => l.state === 'pending').length,
});

/**
 * The lines of recovered jobs to be marked again (the marks a job was started from are gone with its
 * process): those never sent (`unsentToMarkAgain`), and those the job left marked to review (changed
 * since marked). One rule, read where the lines are looked up and where the offer counts them.
 */
export function toMarkAgain(jobs: readonly Recovered[]): string[] {
  return jobs.flatMap((r) =>
    r.job.lines.filter((l) => unsentToMarkAgain(l) || leftToReview(l)).map((l) => l.id),
  );
}

/** What looking up lines to mark again found, each id in exactly one list. */
export interface MarkAgainLookup {
  /** Found, as the server has them now: to be marked again. */
  readonly found: readonly LineListItem[];
  /** Proven absent: the lookup read the whole list (as one walk) and no line has the id. */
  readonly notFound: readonly string[];
  /** Not reached: the lookup stopped at its page limit (or was stopped) before it read them
   *  (paste-lookup's `unreached`). */
  readonly notLookedUp: readonly string[];
  /** Listed by the server in a form that does not read (paste-lookup's `unreadable`): there, unread. */
  readonly notReadable: readonly string[];
  /** The whole list read, but it may be one of the lines listed in a form that does not read whose id
   *  or username did not read either (paste-lookup's `unidentified`): not known absent. */
  readonly notIdentified: readonly string[];
  /** The lookup failed (the server could not be asked): nothing is known of these. */
  readonly failed: readonly string[];
}

/**
 * Looks up `ids` (lines of interrupted jobs: `toMarkAgain`) so a mark holds each as the server has it
 * now, in one lookup for all. `whole`: it may read the whole list (a check the user asked for); else
 * at most LOOKUP_PAGES_AT_START pages (the start: a long list is not read whole before anything else),
 * and what that did not reach is said not looked up, never "not found".
 */
export async function lookUpToMarkAgain(
  client: ServiceClient,
  ids: readonly string[],
  opts: {
    readonly whole: boolean;
    readonly cancelled: () => boolean;
    readonly logError?: ((context: string, err: unknown) => void) | undefined;
  },
): Promise<MarkAgainLookup> {
  const none: MarkAgainLookup = {
    found: [],
    notFound: [],
    notLookedUp: [],
    notReadable: [],
    notIdentified: [],
    failed: [],
  };
  if (!ids.length) return none;
  try {
    const { found, unreached, unreadable, unidentified } = await lookupPasted(client, ids, {
      cancelled: opts.cancelled,
      progress: () => {},
      ...(opts.whole ? {} : { maxPages: LOOKUP_PAGES_AT_START }),
    });
    const far = new Set(unreached);
    const bad = new Set(unreadable);
    const maybe = new Set(unidentified);
    const lines: LineListItem[] = [];
    const notFound: string[] = [];
    const notLookedUp: string[] = [];
    const notReadable: string[] = [];
    const notIdentified: string[] = [];
    for (const id of new Set(ids)) {
      const hit = found.get(id);
      // An id found as another line's username is not this line.
      if (hit?.id === id) lines.push(hit);
      else if (bad.has(id)) notReadable.push(id);
      else if (far.has(id) || hit) notLookedUp.push(id);
      else if (maybe.has(id)) notIdentified.push(id);
      else notFound.push(id);
    }
    return { found: lines, notFound, notLookedUp, notReadable, notIdentified, failed: [] };
  } catch (err) {
    opts.logError?.('marks of an interrupted job', err);
    return { ...none, failed: [...new Set(ids)] };
  }
}

/**
 * Who owns an open change: which process makes or checks a job now, whether that owner is gone, and
 * what the other open jobs of an account hold. The decisions only; where an owner is written down
 * (a file beside each job: app/intent-file.ts) and how a process is probed (/proc and signal 0:
 * app/process-owner.ts) stay in the app layer, behind the two interfaces below. Both front-ends
 * reach it through the intent log and the change service.
 */
import { type BulkJob, OPEN } from '../../domain/bulk';

/** A process as another can recognise it: its pid, and its start time where the system tells it. */
export interface Owner {
  readonly pid: number;
  /** When it started (on Linux, field 22 of /proc/PID/stat): tells a reused pid apart. */
  readonly start: string | null;
}

/** This process, and whether another still runs (not a zombie, the same start time where known). */
export interface Processes {
  readonly self: Owner;
  isAlive(o: Owner): boolean;
}

/**
 * An owner record as read: none there; an owner; one there but empty or not an owner (`torn`: its
 * maker created it and has not written it yet, or died before it did), with how long ago it was last
 * written; or one there that cannot be read at all (permissions, the disk), `why` in words, `where`
 * the record is (a path, for the user to look at).
 */
export type OwnerRecord =
  | {
      readonly kind: 'none';
      /**
       * Records on their way out of the way (a taker moved them and has not yet dropped or put them
       * back): one may be a live owner's, moved by a taker that judged an earlier record and found
       * this one in its place. Such a one still holds the job until it is put back.
       */
      readonly moving?: readonly ThereRecord[];
    }
  | ThereRecord;

/** A record that is there: an owner, or one that does not read as one (torn, or unreadable). */
export type ThereRecord =
  | { readonly kind: 'owner'; readonly owner: Owner }
  | { readonly kind: 'torn'; readonly ageMs: number; readonly where: string }
  | { readonly kind: 'unreadable'; readonly why: string; readonly where: string };

/**
 * Where the owner of each job is recorded. `key` names the job (the app uses its file's path).
 * Every write throws the backing's own error when it fails; `create` and `moveAside` are exclusive:
 * of two processes doing either at once, exactly one gets true.
 */
export interface OwnerRecords {
  read(key: string): OwnerRecord;
  /**
   * Moves the record out of the way (tagged with the mover's pid), then reads it where it went:
   * when `stillGone` says the record moved is not one to take (another taker's, made since this one
   * judged it), it is put back, never over a record made meanwhile, and this is false. False too
   * when it was already gone.
   */
  moveAside(key: string, tag: number, stillGone: (moved: OwnerRecord) => boolean): boolean;
  /**
   * Records `owner` unless a record is there (false then); false too when the record, stalled
   * before it was written, was taken for abandoned meanwhile (`TORN_ABANDONED_MS`), or when a record
   * on its way aside `holds` the job (made in the gap of another taker's put-back: backed off).
   */
  create(key: string, owner: Owner, holds?: (aside: ThereRecord) => boolean): boolean;
  remove(key: string): void;
}

export const isSame = (a: Owner, b: Owner) => a.pid === b.pid && a.start === b.start;

/** How another process is named to the user. */
export const ownerName = (o: Owner) => `another linedesk (process ${o.pid})`;

/**
 * How long an owner record may stay empty or unreadable as an owner before it is taken for
 * abandoned. Its maker writes it within milliseconds of creating it (one write and one fsync; a
 * failed write removes it), so one still torn a minute later was left by a maker that died in
 * between: 60 s is far above any stall of a live maker (an fsync of a loaded disk takes seconds
 * at worst) and short enough that a job left so is taken over at the next start. A maker that did
 * stall that long finds, once it has written its record, that the file in place is no longer its
 * own (`create` is false): it owns nothing. A record written that far in the future (a clock set
 * back) is abandoned too, never held for ever.
 */
export const TORN_ABANDONED_MS = 60_000;

/**
 * The owner as this process sees it: none, itself, another that still runs, one that is gone (dead,
 * or a torn record older than `TORN_ABANDONED_MS`), one being written now (`writing`: held), or a
 * record that cannot be read (`unreadable`: held by a linedesk no one can tell, never taken).
 */
export type OwnerState = 'none' | 'self' | 'live' | 'gone' | 'writing' | 'unreadable';

export function ownerState(r: OwnerRecord, procs: Processes): OwnerState {
  return judge(r, procs).state;
}

/** The state, and the record that decides it (one on its way aside, when none is in place). */
function judge(r: OwnerRecord, procs: Processes): { state: OwnerState; by: OwnerRecord } {
  switch (r.kind) {
    case 'none':
      for (const m of r.moving ?? []) {
        const state = judge(m, procs).state;
        if (state !== 'gone') return { state, by: m };
      }
      return { state: 'none', by: r };
    case 'owner':
      return {
        state: isSame(r.owner, procs.self) ? 'self' : procs.isAlive(r.owner) ? 'live' : 'gone',
        by: r,
      };
    case 'torn':
      return { state: Math.abs(r.ageMs) > TORN_ABANDONED_MS ? 'gone' : 'writing', by: r };
    case 'unreadable':
      return { state: 'unreadable', by: r };
  }
}

/**
 * Who holds this job for the user: another live process; one writing its owner record now; or one
 * that cannot be told, its record unreadable (named, with what to do). Null when none does.
 */
function holder(r: OwnerRecord, procs: Processes): string | null {
  const { state, by } = judge(r, procs);
  if (state === 'live' && by.kind === 'owner') return ownerName(by.owner);
  if (state === 'writing' && by.kind === 'torn')
    return `another linedesk (writing its owner file ${by.where} now)`;
  if (by.kind === 'unreadable')
    return `another linedesk, maybe (its owner file ${by.where} cannot be read: ${by.why}; make it readable, or remove it once no other linedesk runs)`;
  return null;
}

/** Who else makes or checks this job now (another live process, or one that cannot be told), or null. */
export function heldBy(records: OwnerRecords, key: string, procs: Processes): string | null {
  return holder(records.read(key), procs);
}

/**
 * Takes the job: true when this process owns it now (it did, or it was free, or its owner is gone);
 * false when another live process holds it, its record is being written or cannot be read (it fails
 * closed: a record there holds the job unless it is provably abandoned), or another taker won.
 */
export function claim(records: OwnerRecords, key: string, procs: Processes): boolean {
  const state = ownerState(records.read(key), procs);
  if (state === 'self') return true;
  // A record on its way aside that is not abandoned (nor this process's) still holds the job.
  const holds = (aside: ThereRecord) => !['gone', 'self'].includes(ownerState(aside, procs));
  if (state === 'none') return records.create(key, procs.self, holds);
  if (state !== 'gone') return false;
  // The maker is gone: moved aside first, which only one taker can do; and judged again where it
  // went, since another taker may have replaced it between this read and the move (put back then).
  if (!records.moveAside(key, procs.self.pid, (moved) => ownerState(moved, procs) === 'gone')) return false;
  return records.create(key, procs.self, holds);
}

/** Nothing of the job is in flight from this process any more: another may take it. */
export function release(records: OwnerRecords, key: string, procs: Processes): void {
  if (ownerState(records.read(key), procs) === 'self') records.remove(key);
}

/**
 * What the other open jobs of an account hold, from the intent log: the lines another job has an
 * open change of (sent, in flight, or applied and not yet ended; or still to send by a live process),
 * whose they are — a change this job sees there may be theirs — and whether another job is still
 * spending (its requests move the balance this job is judged by).
 */
export function othersOf(
  jobs: readonly BulkJob[],
  jobId: string,
  targetId: string,
  heldElsewhere: (jobId: string) => string | null,
): { lines: ReadonlyMap<string, string>; spending: boolean } {
  const lines = new Map<string, string>();
  let spending = false;
  for (const o of jobs) {
    if (o.id === jobId || o.target !== targetId) continue;
    const live = heldElsewhere(o.id);
    for (const l of o.lines) {
      if (l.state === 'sending' || (live && l.state === 'pending')) spending = true;
      // Its open lines; and while a live process still runs it, also what it applied or will send.
      if (OPEN.has(l.state) || (live && (l.state === 'done' || l.state === 'pending')))
        lines.set(l.id, `${live ?? 'another linedesk job'}'s ${o.op} (job ${o.id.slice(0, 8)})`);
    }
  }
  return { lines, spending };
}

/**
 * The lines other jobs of the account applied (open ones, or ended lately: `IntentLog.settled`),
 * and whose. A job's "before" of such a line may have been read before that change: a check of this
 * job that sees the line changed cannot tell that change from its own request's, so it is "applied,
 * possibly by another client", never claimed (a charge counted by two jobs' journals).
 */
export function appliedElsewhere(
  jobs: readonly BulkJob[],
  jobId: string,
  targetId: string,
  /** Only the changes sent from then on (or not said when): those the job's balance window may hold. */
  sinceMs = Number.NEGATIVE_INFINITY,
): ReadonlyMap<string, string> {
  const lines = new Map<string, string>();
  for (const o of jobs) {
    if (o.id === jobId || o.target !== targetId) continue;
    for (const l of o.lines)
      if (l.state === 'done' && !l.id.startsWith('new:') && (l.sentAt === undefined || l.sentAt >= sinceMs))
        lines.set(l.id, `another linedesk job's ${o.op} (job ${o.id.slice(0, 8)}) changed this line`);
  }
  return lines;
}

/**
 * A job recorded under another account id of the same service (a key changed since, or an earlier
 * version that kept jobs per URL) — not one of another profile's accounts, which are theirs.
 */
export const isForeignOf = (
  target: string,
  service: { readonly baseUrl: string; readonly targetId: string; readonly others: ReadonlySet<string> },
) =>
  target !== service.targetId &&
  !service.others.has(target) &&
  (target === service.baseUrl || target.startsWith(`${service.baseUrl}#`));

/**
 * Owner records in memory (tests, and a log kept in memory): the same contract as the files. `raw`
 * holds an owner, or a record that cannot be read, or one torn at a time (`now`'s clock).
 */
export function memoryOwnerRecords(now: () => number = Date.now): OwnerRecords & {
  readonly raw: Map<string, Owner | 'unreadable' | { readonly tornAt: number }>;
} {
  const raw = new Map<string, Owner | 'unreadable' | { readonly tornAt: number }>();
  const asRecord = (
    key: string,
    o: Owner | 'unreadable' | { readonly tornAt: number } | undefined,
  ): OwnerRecord =>
    o === undefined
      ? { kind: 'none' }
      : o === 'unreadable'
        ? { kind: 'unreadable', why: 'it cannot be read', where: key }
        : 'tornAt' in o
          ? { kind: 'torn', ageMs: now() - o.tornAt, where: key }
          : { kind: 'owner', owner: o };
  return {
    raw,
    read: (key) => asRecord(key, raw.get(key)),
    moveAside(key, _tag, stillGone) {
      const o = raw.get(key);
      if (o === undefined) return false;
      raw.delete(key);
      if (stillGone(asRecord(key, o))) return true;
      if (!raw.has(key)) raw.set(key, o);
      return false;
    },
    create(key, owner) {
      if (raw.has(key)) return false;
      raw.set(key, owner);
      return true;
    },
    remove: (key) => {
      raw.delete(key);
    },
  };
}

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
 * Where the owner of each job is recorded. `key` names the job (the app uses its file's path).
 * Every write throws the backing's own error when it fails; `create` and `moveAside` are exclusive:
 * of two processes doing either at once, exactly one gets true.
 */
export interface OwnerRecords {
  /** The recorded owner; null when none is recorded or the record cannot be read. */
  read(key: string): Owner | null;
  /** Whether any record is there, readable or not. */
  exists(key: string): boolean;
  /** Moves the record out of the way (tagged with the mover's pid); false when it was already gone. */
  moveAside(key: string, tag: number): boolean;
  /** Records `owner` unless a record is there (false then). */
  create(key: string, owner: Owner): boolean;
  remove(key: string): void;
}

export const isSame = (a: Owner, b: Owner) => a.pid === b.pid && a.start === b.start;

/** How another process is named to the user. */
export const ownerName = (o: Owner) => `another linedesk (process ${o.pid})`;

/** The owner as this process sees it: none, itself, another that still runs, or one that is gone. */
export type OwnerState = 'none' | 'self' | 'live' | 'gone';

export function ownerState(o: Owner | null, recorded: boolean, procs: Processes): OwnerState {
  if (o && isSame(o, procs.self)) return 'self';
  if (o && procs.isAlive(o)) return 'live';
  // A record that cannot be read holds the job for nobody: its maker is as good as gone.
  return o || recorded ? 'gone' : 'none';
}

/** Who else makes or checks this job now (another live process), or null. */
export function heldBy(records: OwnerRecords, key: string, procs: Processes): string | null {
  const o = records.read(key);
  return o && ownerState(o, true, procs) === 'live' ? ownerName(o) : null;
}

/**
 * Takes the job: true when this process owns it now (it did, or it was free, or its owner is gone);
 * false only when another live process holds it (or another taker won the race).
 */
export function claim(records: OwnerRecords, key: string, procs: Processes): boolean {
  const o = records.read(key);
  const state = ownerState(o, o !== null || records.exists(key), procs);
  if (state === 'self') return true;
  if (state === 'live') return false;
  // The maker is gone (or its record unreadable): moved aside first, which only one taker can do.
  if (state === 'gone' && !records.moveAside(key, procs.self.pid)) return false;
  return records.create(key, procs.self);
}

/** Nothing of the job is in flight from this process any more: another may take it. */
export function release(records: OwnerRecords, key: string, procs: Processes): void {
  const o = records.read(key);
  if (o && isSame(o, procs.self)) records.remove(key);
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

/** Owner records in memory (tests, and a log kept in memory): the same contract as the files. */
export function memoryOwnerRecords(): OwnerRecords & { readonly raw: Map<string, Owner | 'unreadable'> } {
  const raw = new Map<string, Owner | 'unreadable'>();
  return {
    raw,
    read: (key) => {
      const o = raw.get(key);
      return o === undefined || o === 'unreadable' ? null : o;
    },
    exists: (key) => raw.has(key),
    moveAside: (key) => raw.delete(key),
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

import { sanitizeMultiline } from '../../api/sanitize';
import { type BulkJob, type BulkLine, OPEN } from '../../domain/bulk';
import { describeError } from '../describe-error';

/**
 * Every change's intent, written before its request leaves and closed only when its outcome is
 * known (Stripe's idempotency thinking). One record per job; a single change is a job of one line.
 * Writes throw when they fail (the disk's error, with the path): the engine then does not send.
 * A record is on disk (synced) before a write returns.
 */
export interface IntentLog {
  /**
   * Writes the job whole, on disk (synced, its name too) before this returns: nothing of it is sent
   * before. Written whole or not at all: a begin that throws left no file of the job behind, unless it
   * throws `BeginNotUndone` (its file may stay, and offer the job at the next start).
   */
  begin(job: BulkJob): void;
  line(jobId: string, line: BulkLine): void;
  /**
   * The job is settled (or set aside by the user): nothing of it is offered again. One that throws
   * may have left the job's file in place, offering its lines as it last had them at the next start.
   */
  end(jobId: string): void;
  /** The job's file, for a message that names it (a log kept in memory has none). */
  where?(jobId: string): string;
  /**
   * Jobs not yet ended: a line still open (unknown or in flight), never sent (interrupted), or all
   * settled but stopped before the journal had them (the recovery journals them, idempotently).
   */
  open(): BulkJob[];
  /**
   * The job's balance no longer judges its charges (another job started spending). Appended, not
   * rewritten, so a process still writing the job loses none of its records.
   */
  closeBalanceWindow(jobId: string): void;
  /**
   * The balance the job's window starts from: read once its lines were read again, just before its
   * first request (a spend elsewhere during the read is not in it). A job is begun with its window
   * not open yet (`balanceBefore: null`: judged by the line alone if it stops there); this opens it.
   * Appended like a line record (synced); a window another job closed before stays closed.
   */
  openBalanceWindow(jobId: string, balance: number): void;
  /**
   * Who else is making this job's changes now (another linedesk still running), or null. Its lines
   * are that process's to settle: judged from here, a request still in flight would look "not applied".
   */
  heldElsewhere(jobId: string): string | null;
  /**
   * Takes the job (its maker released it or is gone); false when another live process holds it.
   * Throws the disk's own error (with the owner file's path) when the owner file cannot be written.
   */
  claim(jobId: string): boolean;
  /** Nothing of the job is in flight from here any more: another linedesk may check it. */
  release(jobId: string): void;
  /**
   * Jobs ended lately (the file log keeps an ended job a while, then drops it): what they applied.
   * A later job's "before" of a line may have been read before one of those changes, so a change a
   * check sees on that line may be theirs, not the later job's. A log kept in memory keeps them all.
   */
  settled?(): BulkJob[];
  /**
   * Job files, or parts of them, that could not be read (found afresh on each call): each named with
   * its path, never skipped in silence; an ended job's kept file too (`ended`). A damaged job whose first record reads is also in `open()`,
   * its lines that may have been sent `unknown` (checked, never resumed). A log kept in memory has
   * no files, and so no such method.
   */
  damaged?(): IntentDamage[];
  /**
   * `open()` and `damaged()` from one read of the log (a command that needs both reads it once:
   * `readLog`). A log kept in memory has no files, and so no such method.
   */
  openAndDamaged?(): { readonly jobs: BulkJob[]; readonly damage: IntentDamage[] };
  /**
   * The open jobs and the damage of the open jobs' files only (not an ended job's), from one read of
   * the log (what a balance read asks: is a change of this account open, or may one be?). `expected`:
   * a job of this log is known to be open (a running job's own), so a directory gone is damage too,
   * not an empty log.
   */
  openWithDamage?(expected?: boolean): { readonly jobs: BulkJob[]; readonly damage: IntentDamage[] };
  /**
   * The user's explicit "set aside" of a job file (a damaged one, after its lines were looked up):
   * renamed to `<name>.damaged-<time>` beside it, so it is kept but no longer read, and its owner file
   * removed. Returns the new path. Throws when the path is not a job file of this log, or another live
   * linedesk holds the job. Never called on the app's own initiative.
   */
  setAside?(path: string): string;
  /**
   * The log's own version of each of these jobs, read now for a check that writes verdicts (never
   * the caller's copy, which another linedesk or an earlier check may have settled since): see
   * `LoggedJob`. A log on disk says when its directory cannot be listed (or is gone) or a job's file
   * cannot be read, with the path; a log kept in memory has no files (`loggedJobs` reads it).
   */
  current?(jobIds: readonly string[]): ReadonlyMap<string, LoggedJob>;
}

/**
 * `begin` failed once the job's file was in place (its directory could not be synced, say), and the
 * file could not be taken back out: it may stay, and offer the job's lines at the next start (or to
 * another linedesk now: nothing holds it). Its lines are never retried as a new job meanwhile: the
 * same lines would be in two jobs. `cause`: the failure; `path`: the file; `left`: why it stays.
 */
export class BeginNotUndone extends Error {
  override readonly name = 'BeginNotUndone';
  constructor(
    override readonly cause: unknown,
    readonly path: string,
    readonly left: string,
  ) {
    super(`${describeError(cause)}; ${path} could not be taken back out (${left})`);
  }
}

/**
 * What the user can do about a disk error of the intent log (the one rule every notice of one goes
 * by), chosen by its code and by what linedesk was doing there: writing (a job's file, its owner
 * file: the directory linedesk creates its files in is what to fix, the file named may never have
 * been made) or reading (the path that does not read, named just before the advice). `fresh`:
 * nothing of the job is on disk (a new job's begin), so another data directory would do too; never
 * said otherwise (the job's file, with what it holds open, would no longer be read). Null when the
 * error has no code (not the disk's: a bug of ours, said as such).
 */
export function diskFix(
  err: { readonly code?: string | undefined; readonly path?: string | undefined } | null | undefined,
  doing: 'read' | 'write',
  fresh = false,
): string | null {
  const code = typeof err?.code === 'string' ? err.code : undefined;
  if (code === undefined) return null;
  const path = typeof err?.path === 'string' ? sanitizeMultiline(err.path) : '';
  // A read's path is named just before its advice (intent-damage.ts `unreadablePath`): not again.
  if (doing === 'read') {
    if (code === 'EACCES' || code === 'EPERM') return 'give this user permission to read it';
    if (code === 'EIO') return 'check the disk it is on';
    if (code === 'ENOENT') return 'put it back where it was';
    return 'fix it (its permissions, the disk)';
  }
  const slash = path.lastIndexOf('/');
  const dir = slash > 0 ? path.slice(0, slash) : '';
  const or = fresh ? ' (or set LINEDESK_DATA_DIR to a directory it can write)' : '';
  const where = dir ? `in ${dir}` : 'in its directory';
  const disk = `the disk that holds ${dir || 'its files'}`;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `linedesk cannot create or write its files ${where}; give this user write permission on it${or}`;
    case 'EROFS':
      return `linedesk cannot create or write its files ${where}; make that file system writable${or}`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `free space on ${disk}${or}`;
    default:
      return `check ${disk}${code === 'EIO' ? '' : ' and its permissions'}${or}`;
  }
}

/**
 * A write the intent log refused, in words (what follows "the intent log could not be written"): the
 * disk's error with its file (`describeError`), and what to do (`diskFix`; `fresh`: a new job's
 * begin, nothing of it on disk), then try again.
 */
export function writeRefused(err: unknown, fresh = false): string {
  const said = `(${describeError(err)})`;
  const fix = diskFix(err as NodeJS.ErrnoException | null, 'write', fresh);
  return fix ? `${said}: ${fix}, then try again` : said;
}

/**
 * A job as the intent log has it now: open (its lines as last written), ended (settled meanwhile: kept
 * a while, nothing of it is checked again), gone (in neither: dropped after it ended, or set aside), or
 * unreadable (the log's directory cannot be listed, or the job's file cannot be read: `path` names
 * which, for the user to fix; nothing of the job is checked or written meanwhile).
 */
export type LoggedJob =
  | { readonly kind: 'open'; readonly job: BulkJob }
  | { readonly kind: 'ended'; readonly job: BulkJob }
  | { readonly kind: 'gone' }
  | {
      readonly kind: 'unreadable';
      readonly path: string;
      readonly problem: string;
      /** What does not read: the advice said for it follows this, never the problem's words. */
      readonly cause: UnreadableCause;
      /** The disk's error code, when it told one: what the user can do is chosen by it (`diskFix`). */
      readonly code?: string;
    };

/** A path of the intent log that does not read, and why (`LoggedJob`'s `unreadable`). */
export type Unreadable = Extract<LoggedJob, { readonly kind: 'unreadable' }>;

/**
 * Why a path of the intent log does not read. `directory`: the log's directory cannot be listed (or
 * is gone); `file`: a job's file cannot be read at all (its permissions, the disk; `problem` is the
 * disk's error); `records`: a job's file reads but its job record does not (the job cannot be told;
 * `problem` says which records); `log`: the log failed otherwise (`path` is what its error named). A
 * job's file (`file`, `records`) can be set aside once its lines are looked up; the directory and the
 * log are fixed where they are.
 */
export type UnreadableCause = 'directory' | 'file' | 'records' | 'log';

/**
 * A damaged path of the log as a job unreadable by it (`LoggedJob`), its cause typed from the damage's
 * own fields: what a check, a resume or a send refused for it says (intent-damage.ts `sayNotChecked`,
 * `unreadableLog`).
 */
export function unreadableOf(d: IntentDamage): Unreadable {
  const cause = d.directory ? 'directory' : d.unread ? 'file' : 'records';
  const problem = d.readError ?? d.problem;
  return { kind: 'unreadable', path: d.path, problem, cause, ...(d.code ? { code: d.code } : {}) };
}

/**
 * The log's version of each job (`IntentLog.current`; a log without files is read through `open` and
 * `settled`, which cannot fail). A log that throws makes every job unreadable, said with its error.
 */
export function loggedJobs(log: IntentLog, jobIds: readonly string[]): ReadonlyMap<string, LoggedJob> {
  try {
    if (log.current) return log.current(jobIds);
    const open = log.open();
    let ended: BulkJob[] | undefined;
    const out = new Map<string, LoggedJob>();
    for (const id of jobIds) {
      const job = open.find((j) => j.id === id);
      if (job) {
        out.set(id, { kind: 'open', job });
        continue;
      }
      ended ??= log.settled?.() ?? [];
      const done = ended.find((j) => j.id === id);
      out.set(id, done ? { kind: 'ended', job: done } : { kind: 'gone' });
    }
    return out;
  } catch (err) {
    const failed = logFailed(err);
    return new Map(jobIds.map((id) => [id, failed]));
  }
}

/**
 * A read of the log that threw, as a path that does not read: the path its error names (else the
 * log's), cause `log` (every reader of the log says it alike: `loggedJobs`, the change service).
 */
export function logFailed(err: unknown): Unreadable {
  const e = err as NodeJS.ErrnoException | null;
  const path = e?.path ?? 'the intent log';
  const code = typeof e?.code === 'string' ? { code: e.code } : {};
  return { kind: 'unreadable', path, problem: describeError(err), cause: 'log', ...code };
}

/** A job file, or a part of one, the intent log could not read. */
export interface IntentDamage {
  /** The file (or the log's directory, when it cannot be listed): for the user to look at or set aside. */
  readonly path: string;
  /** What is wrong, in words: "record 3 of 7 is not a record (null)", "the last record is torn". */
  readonly problem: string;
  /** The job, when its first record reads (it is then in `open()`); null: the file cannot be checked. */
  readonly jobId: string | null;
  /**
   * The lines it may concern: those that may have been sent (a job that reads), or every line the
   * readable records name (one that does not). Empty when none can be told.
   */
  readonly lines: readonly { readonly id: string; readonly username: string }[];
  /**
   * The file of a job that ended (kept a while so later checks know what it applied, then dropped):
   * nothing of it is open or checked again; while it does not read, a later check of a line it
   * changed may count that change as its own (the journal over-claims; nothing is sent or charged).
   */
  readonly ended?: true;
  /**
   * The log's directory itself cannot be listed (`path` is the directory): nothing in it can be read,
   * so its open jobs are neither offered nor checked until it reads. Not a file to set aside.
   */
  readonly directory?: true;
  /**
   * The file itself cannot be read (not a record of it): what it holds cannot be told, so an open
   * job's may be a job of this account in flight now (its balance window open, a line of it being sent).
   */
  readonly unread?: true;
  /** When `unread`: the disk's error alone (`problem` says it in a sentence). */
  readonly readError?: string;
  /**
   * When `directory` or `unread`: the disk's error code, if it told one (what the user can do is
   * chosen by it: `diskFix`).
   */
  readonly code?: string;
}

/**
 * The log's open jobs and every damaged file (an ended job's too), read once; `error`: the read threw
 * (reading is defensive: a bug of ours, or a disk that refused a file it names), so what is open
 * cannot all be told — said by whoever read it, with what the user can do (intent-damage.ts
 * `logReadFailed`). The open jobs it could still read are in `jobs` all the same (`openRead`): an
 * unknown outcome is checked before anything else, never left unchecked for another file's sake.
 */
export interface LogRead {
  readonly jobs: readonly BulkJob[];
  readonly damage: readonly IntentDamage[];
  readonly error?: LogReadError;
}

/** A read of the log that threw (`LogRead.error`). */
export interface LogReadError {
  /** The path the error names (a disk's error does), else null: a bug of ours. */
  readonly path: string | null;
  /** The error, in words (`describeError`). */
  readonly problem: string;
  /** The open jobs (and their files' damage) were read all the same: `jobs` has them. */
  readonly openRead: boolean;
}

/**
 * One read of the log's open jobs and damage (`LogRead`): what the recovery and `pending` go by. A
 * whole read that throws (an ended job's kept file the disk refuses, say) is followed by a read of the
 * open jobs alone, so they are still checked; only a log whose open jobs cannot be read either has none.
 */
export function readLog(log: IntentLog): LogRead {
  const failed = (err: unknown, openRead: boolean): LogReadError => ({
    path: (err as NodeJS.ErrnoException | null)?.path ?? null,
    problem: describeError(err),
    openRead,
  });
  /** The open jobs (with their files' damage, when the log can tell it apart) after `err`. */
  const openAfter = (err: unknown): LogRead => {
    try {
      const { jobs, damage } = log.openWithDamage?.() ?? { jobs: log.open(), damage: [] };
      return { jobs, damage, error: failed(err, true) };
    } catch {
      return { jobs: [], damage: [], error: failed(err, false) };
    }
  };
  if (log.openAndDamaged) {
    try {
      return log.openAndDamaged();
    } catch (err) {
      return openAfter(err);
    }
  }
  let jobs: BulkJob[];
  try {
    jobs = log.open();
  } catch (err) {
    return { jobs: [], damage: [], error: failed(err, false) };
  }
  try {
    return { jobs, damage: log.damaged?.() ?? [] };
  } catch (err) {
    return { jobs, damage: [], error: failed(err, true) };
  }
}

/** An open job recorded for this service under another account id (an earlier key, or an earlier
 *  version that kept jobs per URL): this account's only if the server shows it its lines. */
export interface ForeignJob {
  readonly job: BulkJob;
  /** Where it is kept, for the user to look. */
  readonly where: string;
  readonly heldElsewhere: string | null;
  /** Moves it into this account's log (as its own from now on). */
  adopt(): void;
}

/** A job needs attention at the next start when a line is unsettled or was left unsent by a crash. */
export function needsAttention(job: BulkJob): boolean {
  return job.lines.some((l) => OPEN.has(l.state) || l.state === 'pending');
}

export function memoryIntentLog(): IntentLog & { records: unknown[]; failNext: number } {
  const jobs = new Map<string, BulkJob>();
  /** Ended jobs, as the file log keeps them a while (here for the process's life). */
  const ended = new Map<string, BulkJob>();
  /** Jobs whose window another job closed: opening it after that leaves it closed. */
  const closed = new Set<string>();
  const records: unknown[] = [];
  const log = {
    records,
    /** Tests: the next N writes throw, as a full disk would. */
    failNext: 0,
    check() {
      if (log.failNext > 0) {
        log.failNext--;
        throw new Error('ENOSPC: no space left on device');
      }
    },
    begin(j: BulkJob) {
      log.check();
      jobs.set(j.id, j);
      closed.delete(j.id);
      records.push({ begin: j.id });
    },
    line(jobId: string, l: BulkLine) {
      log.check();
      const job = jobs.get(jobId);
      if (job)
        jobs.set(jobId, {
          ...job,
          lines: job.lines.map((x) => (x.id === l.id || x.id === `new:${l.username}` ? l : x)),
        });
      records.push({ line: l.id, state: l.state });
    },
    end(jobId: string) {
      const job = jobs.get(jobId);
      if (job) ended.set(jobId, job);
      jobs.delete(jobId);
      records.push({ end: jobId });
    },
    open: () => [...jobs.values()],
    settled: () => [...ended.values()],
    closeBalanceWindow(jobId: string) {
      const job = jobs.get(jobId);
      if (job) jobs.set(jobId, { ...job, balanceBefore: null });
      if (job) closed.add(jobId);
      records.push({ window: jobId });
    },
    openBalanceWindow(jobId: string, balance: number) {
      log.check();
      const job = jobs.get(jobId);
      if (job && !closed.has(jobId)) jobs.set(jobId, { ...job, balanceBefore: balance });
      records.push({ balance: jobId });
    },
    heldElsewhere: () => null,
    claim: () => true,
    release() {},
  };
  return log;
}

import type { BulkJob } from '../../domain/bulk';
import { linesNamed } from '../../domain/format';
import { describeError } from '../describe-error';
import {
  diskFix,
  type IntentLog,
  type LoggedJob,
  type LogRead,
  type LogReadError,
  type UnreadableCause,
} from './intent-log';

/** Says something to the user (the screens' flash line, a command's stderr). */
export type Notify = (text: string, tone: 'info' | 'success' | 'warning' | 'error') => void;

/** What a damaged ended job's file means, in words, and how it is set aside now. */
const endedDamage = (named: string, count: number, path: string) =>
  `nothing of it is open; ${count ? `a new change of ${named} it changed` : 'a new change of a line it changed'} may be journaled as charged though that job paid for it (nothing is sent or charged twice); it is dropped within the hour, or set it aside now (linedesk pending --set-aside ${path} --yes)`;

/**
 * Damaged intent files at start (intent-records.ts reads them): each is said once, with its path and
 * what the user can do (`linedesk pending` says them by this too, as its start, not again). A job
 * whose first record reads is checked by the recovery like any other (its lines that may have been
 * sent are `unknown`); one that does not cannot be checked — the lines its readable records name are
 * held (no new change is sent for them) until the user sets the file aside.
 */
export function holdDamagedIntents(
  read: LogRead,
  notify: Notify,
  /** Holds these lines for `who` (no new change is sent for them); `key` names what holds them. */
  hold: (lines: readonly { readonly id: string }[], key: string, who: string) => void,
  /** The read failed: said here (false: its reader says it, once). */
  sayError = true,
): void {
  // Reading is defensive: a read that threw is said rather than a failed start, and what it still
  // read (the open jobs and their files' damage) is gone on by.
  if (read.error !== undefined && sayError) {
    const { text, advice } = logReadFailed(read.error);
    notify(`${text.replace(/^t/, 'T')}: ${advice}`, 'error');
  }
  for (const d of read.damage) {
    if (d.directory) {
      notify(
        `The intent log cannot be read (${d.path}: ${d.problem}): the changes left open in it are not checked or offered until it reads; ${readFix(d.code)}, then try again`,
        'error',
      );
      continue;
    }
    const names = d.lines.map((l) => l.username);
    const named = linesNamed(names);
    if (d.ended) {
      // Nothing of an ended job is open: no line is held, and the file is dropped within the hour.
      notify(
        `The intent file ${d.path} of an ended job is damaged (${d.problem}): ${endedDamage(named, names.length, d.path)}`,
        'warning',
      );
      continue;
    }
    if (d.jobId !== null) {
      notify(
        `The intent file ${d.path} is damaged (${d.problem}): ${names.length ? `${named} that may have been sent ${names.length === 1 ? 'is' : 'are'}` : 'its lines are'} checked with the server, never re-sent`,
        'error',
      );
      continue;
    }
    hold(
      d.lines.filter((x) => !x.id.startsWith('new:')),
      d.path,
      `a damaged intent file (${d.path})`,
    );
    notify(
      `The intent file ${d.path} is damaged (${d.problem}) and cannot be checked: ${
        names.length
          ? `it names ${named}, held here until it is set aside; look them up on the panel, then`
          : 'no line it concerns can be read from it; look up the changes made around its time, then'
      } ${setAsideHow(d.path)}`,
      'error',
    );
  }
}

/**
 * A read of the log that threw (`LogRead.error`), in words: what could not be read (the path its error
 * names: a disk that refuses a file is fixed there; no path: a bug of ours, reported), whether the open
 * changes were read and checked all the same, and what the user can do.
 */
export function logReadFailed(e: LogReadError): { readonly text: string; readonly advice: string } {
  const why = e.path === null ? e.problem : `${e.path}: ${e.problem.split(`: ${e.path}`).join('')}`;
  const open = e.openRead
    ? 'the changes left open that it could read are checked all the same'
    : 'the changes left open in it are not checked until it reads';
  return {
    text: `the intent log could not be read (${why}); ${open}`,
    advice:
      e.path === null
        ? 'run again, and if it stays, report it'
        : 'fix it (its permissions, the disk), then run again',
  };
}

/** What to do about a path of the log that does not read, by the disk's error code (`diskFix`). */
const readFix = (code: string | undefined) =>
  diskFix({ code }, 'read') ?? 'fix it (its permissions, the disk)';

/** What to do about a write the disk refused for a job on disk (`diskFix`), as the end of a notice. */
const fixThen = (err: unknown): string => {
  const fix = diskFix(err as NodeJS.ErrnoException | null, 'write');
  return fix ? `; ${fix}, then try again` : '';
};

/**
 * Takes a job to check or resume it: null when taken; otherwise who holds it. A disk that cannot take
 * the owner file is said here, for what it is (never "another linedesk"), and `said` is true.
 */
export function takeJob(
  intents: IntentLog,
  jobId: string,
  notify: Notify,
): { readonly by: string; readonly said: boolean } | null {
  const who = intents.heldElsewhere(jobId);
  if (who) return { by: who, said: false };
  try {
    return intents.claim(jobId)
      ? null
      : { by: intents.heldElsewhere(jobId) ?? 'another linedesk', said: false };
  } catch (err) {
    const why = describeError(err);
    notify(
      `The intent log cannot be written (${why}): an earlier change (job ${jobId.slice(0, 8)}) is not checked from here, and no new change is sent for its lines${fixThen(err)}`,
      'error',
    );
    return { by: `an intent log that cannot be written (${why})`, said: true };
  }
}

/**
 * A path of the intent log that cannot be read, in the words every notice of it uses, chosen by its
 * cause (`UnreadableCause`): the path once and the problem once (a disk's error names the path too:
 * not again).
 */
const unreadablePath = (path: string, problem: string, cause: UnreadableCause): string => {
  const why = problem.split(`: ${path}`).join('');
  return {
    file: `the intent file ${path} cannot be read (${why})`,
    records: `the intent file ${path} is damaged (${why})`,
    directory: `the intent log cannot be read (${path}: ${why})`,
    log: `the intent log cannot be read (${path}: ${why})`,
  }[cause];
};

/** `unreadablePath`'s words alone: a line's detail, a notice. */
export const unreadableLog = (path: string, problem: string, cause: UnreadableCause) =>
  unreadablePath(path, problem, cause);

/**
 * How a job's file is set aside once its lines are looked up: the start-up notice and a refusal in
 * the session say it alike (a file that does not read stops every new change until it reads or is
 * moved away: it may be another linedesk's change in flight).
 */
export const setAsideHow = (path: string) =>
  `set it aside by moving the file out of its directory (linedesk pending --set-aside ${path} --yes)`;

/**
 * What the user can do about a path of the log that does not read, by its cause: a job's file is set
 * aside once its lines are looked up (one whose job record does not read will not read by itself; one
 * that does not read at all may, so `again` first); the directory and the log are fixed where they
 * are (`again`: what then). Every refusal and notice of such a path says it by this.
 */
export const unreadableAdvice = (path: string, cause: UnreadableCause, again: string): string =>
  ({
    file: `${again}; if it stays unreadable, look up the changes made around its time, then ${setAsideHow(path)}`,
    records: `look its lines up on the panel, then ${setAsideHow(path)}`,
    directory: again,
    log: again,
  })[cause];

/**
 * Why a change seen on a line may not be this job's, when the intent log cannot be read: another
 * job's change of it (open, or ended lately) cannot be ruled out. The engine's words for the line.
 */
export const othersUntold = (path: string) =>
  `the intent log cannot be read (${path}): another job's change of this line cannot be ruled out`;

/**
 * A job checked while the intent log cannot be read (its directory, another job's file, or one whose
 * job record does not read): what other jobs of the account hold cannot be told, so each question
 * about them takes its cautious answer (no balance window, none counted open; a change seen on a line
 * may be another client's). Said once per job and path by the caller, with what the user can do; the
 * job's lines are judged by the line alone meanwhile.
 */
export function sayOthersUntold(
  job: BulkJob,
  path: string,
  problem: string,
  notify: Notify,
  cause: UnreadableCause,
  /** The disk's error code, when it told one (`Unreadable.code`): what to do follows it. */
  code?: string,
): void {
  const what = unreadableAdvice(path, cause, readFix(code));
  notify(
    `${unreadableLog(path, problem, cause).replace(/^t/, 'T')}: other changes of this account cannot be ruled out, so the balance does not judge ${jobNamed(job)}; its lines are judged by the line alone (a change seen may be another client's); ${what}`,
    'warning',
  );
}

/** A job as a notice names it: its operation, its count of lines and the first usernames. */
const jobNamed = (job: BulkJob) => `the ${job.op} of ${linesNamed(job.lines.map((l) => l.username))}`;

/**
 * Jobs whose check (or resume) was refused because the intent log has no version of them to check from (a check
 * writes verdicts from the log's own version only, never a caller's copy): said, one notice per
 * path that cannot be read (the directory, or a job's file) and one for the jobs no longer in the log
 * (ended and dropped, or set aside: nothing of them is left to check, resume or offer).
 * Nothing of them was checked or written; once the path reads, a check again runs from the log.
 */
export function sayNotChecked(
  refused: readonly { readonly job: BulkJob; readonly logged: LoggedJob | undefined }[],
  notify: Notify,
  /**
   * What was refused: a check (nothing written), a resume or a new job (nothing sent), or an offer
   * again of the jobs a resume left waiting (kept open in the log: the next start offers them).
   */
  what: 'check' | 'resume' | 'send' | 'offer' = 'check',
): void {
  const refusal = {
    check: 'Not checked, nothing written',
    resume: 'Not resumed, nothing sent',
    send: 'Not sent, nothing charged',
    offer: 'Not offered again, nothing written',
  }[what];
  const byPath = new Map<
    string,
    { problem: string; cause: UnreadableCause; code: string | undefined; jobs: BulkJob[] }
  >();
  const gone: BulkJob[] = [];
  for (const { job, logged } of refused) {
    if (logged?.kind !== 'unreadable') {
      gone.push(job);
      continue;
    }
    const at = byPath.get(logged.path) ?? {
      problem: logged.problem,
      cause: logged.cause,
      code: logged.code,
      jobs: [],
    };
    at.jobs.push(job);
    byPath.set(logged.path, at);
  }
  for (const [path, { problem, cause, code, jobs }] of byPath) {
    const text = unreadablePath(path, problem, cause);
    // What to do about the disk (by its error: `diskFix`), then; a job's file also as the start-up
    // notice says it.
    const fix = readFix(code);
    const again =
      what === 'offer' ? `${fix}; the next start offers them once it reads` : `${fix}, then try again`;
    notify(
      `${refusal}: ${text}; ${unreadableAdvice(path, cause, again)} (${jobs.map(jobNamed).join('; ')})`,
      'error',
    );
  }
  if (gone.length)
    notify(
      `${refusal}: no longer in the intent log (ended and dropped, or set aside): ${gone.map(jobNamed).join('; ')}`,
      'warning',
    );
}

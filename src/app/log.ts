import { closeSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * How often, at most, the log path is looked at to see whether the open file is still the one there
 * (a rotation renamed it away, or it was deleted): a line written in between goes to the old file.
 */
export const LOG_CHECK_MS = 1_000;

interface LogOptions {
  /** The time lines are stamped with and the path's checks are spaced by (tests move it). */
  readonly clock?: () => number;
}

/**
 * The log file: details that must never reach the screen (stacks, request timings). Nothing written
 * here carries the API key: the client's events hold method, path, status and timing only.
 */
export function createLog(file: string, options: LogOptions = {}) {
  const clock = options.clock ?? Date.now;
  let ok = true;
  const makeDir = () => mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    makeDir();
  } catch {
    ok = false;
  }
  // Opened once, for appending (O_APPEND: another linedesk's lines interleave whole): a listing
  // logs a line a request, and opening and closing the file for each was ≈ 3 % of its CPU.
  let fd: number | null = null;
  let checkedAt = 0;
  const close = () => {
    if (fd === null) return;
    try {
      closeSync(fd);
    } catch {
      // closed already: nothing is lost
    }
    fd = null;
  };
  const open = () => {
    // The directory too: a user who deleted the state directory gets it back as it was made.
    makeDir();
    return openSync(file, 'a', 0o600);
  };
  /**
   * Whether the open file is still the one at the log path. A rotation (logrotate renames it away)
   * or a deletion would otherwise send every later line to a file nobody reads; a copy-and-truncate
   * rotation keeps the file, and O_APPEND writes at its new end.
   */
  const stillThere = (held: number) => {
    const there = statSync(file, { throwIfNoEntry: false });
    if (!there) return false;
    const ours = fstatSync(held);
    return there.ino === ours.ino && there.dev === ours.dev;
  };
  const write = (line: string) => {
    if (!ok) return;
    const now = clock();
    const text = `${new Date(now).toISOString()} ${line}\n`;
    try {
      if (fd !== null && now - checkedAt >= LOG_CHECK_MS) {
        checkedAt = now;
        if (!stillThere(fd)) close();
      }
      if (fd === null) {
        fd = open();
        checkedAt = now;
      }
      writeSync(fd, text);
    } catch {
      // A failed write may be a file gone under us (a network home's stale handle): open the path
      // again once; a second failure (a full disk, no permission) ends the log.
      close();
      try {
        fd = open();
        checkedAt = now;
        writeSync(fd, text);
      } catch {
        close();
        ok = false;
      }
    }
  };
  return {
    file,
    /** Whether the log can be written (its directory made, no write failed yet). */
    get writable() {
      return ok;
    },
    write,
    error(context: string, err: unknown) {
      write(`${context}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    },
  };
}
export type Log = ReturnType<typeof createLog>;

import { mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The log file: details that must never reach the screen (stacks, request timings). Nothing written
 * here carries the API key: the client's events hold method, path, status and timing only.
 */
export function createLog(file: string) {
  let ok = true;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch {
    ok = false;
  }
  // Opened once, for appending (O_APPEND: another linedesk's lines interleave whole): a listing
  // logs a line a request, and opening and closing the file for each was ≈ 3 % of its CPU.
  let fd: number | null = null;
  const write = (line: string) => {
    if (!ok) return;
    try {
      fd ??= openSync(file, 'a', 0o600);
      writeSync(fd, `${new Date().toISOString()} ${line}\n`);
    } catch {
      ok = false;
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

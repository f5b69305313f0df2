import { appendFileSync, mkdirSync } from 'node:fs';
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
  const write = (line: string) => {
    if (!ok) return;
    try {
      appendFileSync(file, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
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

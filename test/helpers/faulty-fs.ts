import { openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IntentFs } from '../../src/app/intent-file';

/**
 * An intent log's disk (for `fileIntentLog(dir, undefined, { fs })`) whose reads fail as the test says:
 * an injected disk, since the tests may run as root, where chmod blocks nothing. Switch `failing`:
 * `listing` makes listing `dir` fail (EACCES; `times`: only for the next N listings, `failed` counts
 * them), `file` makes reading that path fail (EIO); each error carries its code and path. While either
 * fails, `written` records every path the log writes or removes (an owner file too).
 */
export function faultyIntentFs(dir: string) {
  const failing = {
    /** The directory cannot be listed (EACCES); `times`: only for the next N listings. */
    listing: false,
    times: Number.POSITIVE_INFINITY,
    /** This file cannot be read (EIO). */
    file: null as string | null,
    /** Listings that failed. */
    failed: 0,
  };
  const written: string[] = [];
  const failingNow = () => failing.listing || failing.file !== null;
  const fs: Partial<IntentFs> = {
    openSync: ((...args: Parameters<typeof openSync>) => {
      if (failingNow() && args[1] !== 'r') written.push(String(args[0]));
      return openSync(...args);
    }) as IntentFs['openSync'],
    rmSync: ((...args: Parameters<typeof rmSync>) => {
      if (failingNow()) written.push(String(args[0]));
      return rmSync(...args);
    }) as IntentFs['rmSync'],
    readdirSync: ((...args: Parameters<typeof readdirSync>) => {
      if (failing.listing && failing.times > 0 && String(args[0]) === dir) {
        failing.times--;
        failing.failed++;
        throw Object.assign(new Error(`EACCES: permission denied, scandir '${dir}'`), {
          code: 'EACCES',
          path: dir,
        });
      }
      return readdirSync(...args);
    }) as IntentFs['readdirSync'],
    readFileSync: ((...args: Parameters<typeof readFileSync>) => {
      if (failing.file !== null && String(args[0]) === failing.file)
        throw Object.assign(new Error(`EIO: i/o error, open '${failing.file}'`), {
          code: 'EIO',
          path: failing.file,
        });
      return readFileSync(...args);
    }) as IntentFs['readFileSync'],
  };
  return { fs, failing, written };
}

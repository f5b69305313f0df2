/**
 * `linedesk pending --wait` drops a job no longer in the intent log ('gone': set aside,
 * or ended and dropped). One set aside while its outcome was still unknown leaves that outcome
 * unknown: the run then says "Nothing is pending: every change has a known outcome" and exits 0, which
 * a script takes for "every change has a known outcome". Before the drop, the job was reported as
 * still unknown (exit 3).
 */
import { renameSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY } from '../helpers/sandbox';
import { unknownExtend } from '../helpers/unknown-extend';

const hook = vi.hoisted(() => ({ afterRelease: undefined as ((jobId: string) => void) | undefined }));

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const log = real.fileIntentLog(...args);
      return {
        ...log,
        release: (jobId: string) => {
          log.release(jobId);
          const after = hook.afterRelease;
          hook.afterRelease = undefined;
          after?.(jobId);
        },
      };
    },
  };
});

afterEach(() => {
  hook.afterRelease = undefined;
});

describe('pending --wait of a job set aside with its outcome unknown', () => {
  it('never says every change has a known outcome, never exit 0', async () => {
    const { proxy, file, home } = await unknownExtend();
    let ahead: number | null = null;
    // Set aside (as `pending --set-aside FILE --yes` does: renamed, no longer read) once the recovery
    // checked it (still unknown: in its hold window) and let it go.
    hook.afterRelease = () => {
      renameSync(file, `${file}.damaged-test`);
      ahead = 0;
    };
    const now = () => {
      if (ahead === null) return Date.now();
      ahead += 60_000;
      return Date.now() + ahead;
    };
    const out = await headless(['pending', '--wait'], { env: envFor(proxy.baseUrl, DEMO_KEY, home), now });
    expect(ahead).not.toBeNull();
    expect(out.stderr).toMatch(/no longer in the intent log/);
    expect(out.stderr).not.toMatch(/every change has a known outcome/);
    expect(out.code).not.toBe(0);
  }, 30_000);
});

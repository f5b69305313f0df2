/**
 * `linedesk pending --wait` no longer checks a job that left the intent log ('gone'). One set aside
 * while its outcome was still unknown leaves that outcome unknown (setting a file aside proves
 * nothing): never "Nothing is pending: every change has a known outcome", never exit 0, which a script
 * would take for "every change has a known outcome". It is listed as set aside (`--json`: in `open`),
 * exit 3, as it was before it left.
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

/**
 * An unknown extend, then `pending --wait` (with `args`); once the recovery checked it (still unknown:
 * in its hold window) and let it go, its file is set aside (as `pending --set-aside FILE --yes` does:
 * renamed, no longer read). The clock runs a minute ahead at each reading from then on.
 */
async function waitSetAside(...args: string[]) {
  const { proxy, file, home, line } = await unknownExtend();
  let ahead: number | null = null;
  hook.afterRelease = () => {
    renameSync(file, `${file}.damaged-test`);
    ahead = 0;
  };
  const now = () => {
    if (ahead === null) return Date.now();
    ahead += 60_000;
    return Date.now() + ahead;
  };
  const out = await headless(['pending', '--wait', ...args], {
    env: envFor(proxy.baseUrl, DEMO_KEY, home),
    now,
  });
  expect(ahead).not.toBeNull();
  return { out, file, line };
}

describe('pending --wait of a job set aside with its outcome unknown', () => {
  it('never says every change has a known outcome, never exit 0', async () => {
    const { out } = await waitSetAside();
    expect(out.stderr).toMatch(/no longer in the intent log/);
    expect(out.stderr).not.toMatch(/every change has a known outcome/);
    expect(out.code).not.toBe(0);
  }, 30_000);

  it('--json lists it in open, state "set aside", with where its file is now; exit 3', async () => {
    const { out, file, line } = await waitSetAside('--json');
    expect(JSON.parse(out.stdout).open).toEqual([
      expect.objectContaining({
        username: line.username,
        state: 'set aside',
        detail: expect.stringContaining(`${file}.damaged-test`),
      }),
    ]);
    expect(out.code).toBe(3);
  }, 30_000);
});

/**
 * `linedesk pending --settle` says why nothing was settled from the settle's own answer, never from a
 * read of the intent log after it: the log may change between the two (here the ended job's file is
 * dropped right after the settle read it), and a second read would then tell another reason (and
 * another exit code) than the one that applied.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { settleWhile } from '../helpers/unknown-extend';

/**
 * `afterRead`: runs once, right after the next read of given jobs' versions (`current`) returned.
 * `read`: that read's answer instead of the log's (once).
 */
const hook = vi.hoisted(() => ({
  afterRead: undefined as (() => void) | undefined,
  read: undefined as ((ids: readonly string[]) => ReadonlyMap<string, unknown>) | undefined,
}));

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const log = real.fileIntentLog(...args);
      return {
        ...log,
        current: (ids: readonly string[]) => {
          const instead = hook.read;
          hook.read = undefined;
          const read = (instead?.(ids) as ReturnType<NonNullable<typeof log.current>>) ?? log.current!(ids);
          const after = hook.afterRead;
          hook.afterRead = undefined;
          after?.();
          return read;
        },
      };
    },
  };
});

afterEach(() => {
  hook.afterRead = undefined;
  hook.read = undefined;
});

describe('linedesk pending --settle refused', () => {
  it('says the reason the settle found, though the log changed right after it read it', async () => {
    const { out, journal } = await settleWhile((file) => {
      // Another linedesk settles the job and ends it…
      fileIntentLog(join(file, '..')).end(file.slice(file.lastIndexOf('/') + 1, -'.jsonl'.length));
      // …and the ended job's file is dropped just after the settle read it.
      hook.afterRead = () => rmSync(`${file}.settled`);
    });
    expect(hook.afterRead).toBeUndefined();
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/already settled: its job ended meanwhile/);
    expect(out.stderr).not.toMatch(/no longer in the intent log/);
    expect(readFileSync(journal, 'utf8')).not.toMatch(/settled by the user/);
  }, 30_000);

  it('its file unreadable as the settle reads it: said with its path and how to set it aside', async () => {
    const { out, file, journal } = await settleWhile((path) => {
      hook.read = (ids) =>
        new Map(
          ids.map((id) => [
            id,
            { kind: 'unreadable', path, problem: 'record 1 of 2 is not a record (null)', cause: 'records' },
          ]),
        );
    });
    expect(hook.read).toBeUndefined();
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`Could not settle it: the intent file ${file} is damaged (record 1 of 2`);
    expect(out.stderr).toContain('nothing was settled: look its lines up on the panel, then set it aside');
    expect(out.stderr).toContain(`linedesk pending --set-aside ${file} --yes`);
    expect(readFileSync(journal, 'utf8')).not.toMatch(/settled by the user/);
  }, 30_000);
});

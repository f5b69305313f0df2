/**
 * `linedesk pending --settle` says why nothing was settled from the settle's own answer, never from a
 * read of the intent log after it: the log may change between the two (here the ended job's file is
 * dropped right after the settle read it), and a second read would then tell another reason (and
 * another exit code) than the one that applied.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

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

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  hook.afterRead = undefined;
  hook.read = undefined;
  while (cleanups.length) await cleanups.pop()!();
});

/**
 * An extend whose outcome is unknown (its request never reached the service), then `pending --settle`
 * of it; `meanwhile` runs on the job's file while the settle's recovery checks the line (its list
 * request), as another linedesk would act on it.
 */
async function settleWhile(meanwhile: (file: string) => void) {
  const env = await sandbox({ lines: 10 });
  const proxy = await faultProxy(env.sb.baseUrl, {
    rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
  });
  cleanups.push(() => proxy.close());
  const home = homeDirs();
  const line = (await env.client.listLines({ limit: 10, type: 'premium' })).lines[0]!;
  const run = (...argv: string[]) => headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home) });
  expect((await run('extend', line.username, '--yes')).code).toBe(3);
  const data = home.LINEDESK_DATA_DIR;
  const files = (readdirSync(data, { recursive: true }) as string[]).filter(
    (f) => f.endsWith('.jsonl') && f.includes('intents'),
  );
  expect(files).toHaveLength(1);
  const file = join(data, files[0]!);
  let armed = true;
  proxy.set({
    onList: () => {
      if (!armed) return;
      armed = false;
      meanwhile(file);
    },
  });
  const out = await run('pending', '--settle', line.username, '--as', 'applied', '--confirm', line.username);
  expect(armed).toBe(false);
  return { out, file, journal: () => readFileSync(join(data, 'journal.jsonl'), 'utf8') };
}

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
    expect(journal()).not.toMatch(/settled by the user/);
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
    expect(journal()).not.toMatch(/settled by the user/);
  }, 30_000);
});

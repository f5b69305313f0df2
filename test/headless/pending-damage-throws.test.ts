/**
 * `linedesk pending` reads the intent log's damaged files defensively; a read that throws anyway (a
 * bug of ours, or a disk that refuses a file) is said, with its error (and the path it names), and
 * exits 3 as an unknown outcome does: never "Nothing is pending" and exit 0, which a script would take
 * for "every change has a known outcome". The open jobs it could still read are checked and listed all
 * the same: what did not read is never a reason to leave an unknown outcome unchecked.
 */
import { describe, expect, it, vi } from 'vitest';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { unknownExtend } from '../helpers/unknown-extend';

/** `damaged`: the damage read throws; `path`: as a disk's error naming that file (else a plain bug). */
const failing = vi.hoisted(() => ({ damaged: false, path: undefined as string | undefined }));
const broke = () =>
  failing.path === undefined
    ? new Error('the damage scan broke')
    : Object.assign(new Error(`EACCES: permission denied, open '${failing.path}'`), {
        code: 'EACCES',
        path: failing.path,
      });

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const log = real.fileIntentLog(...args);
      return {
        ...log,
        damaged: () => {
          if (failing.damaged) throw broke();
          return log.damaged?.() ?? [];
        },
        // The one read `pending` makes (its open jobs and damage).
        openAndDamaged: () => {
          if (failing.damaged) throw broke();
          return log.openAndDamaged!();
        },
      };
    },
  };
});

describe('linedesk pending over damage that cannot be read', () => {
  it('names the error and exits 3, never "Nothing is pending"', async () => {
    const env = await sandbox({ lines: 10 });
    const home = homeDirs();
    const run = (...argv: string[]) => headless(argv, { env: envFor(env.sb.baseUrl, DEMO_KEY, home) });
    const clean = await run('pending');
    expect(clean.code).toBe(0);
    expect(clean.stderr).toMatch(/Nothing is pending/);

    failing.damaged = true;
    const broken = await run('pending');
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(
      /cannot all be told: the intent log could not be read \(.*the damage scan broke\)/,
    );
    expect(broken.stderr).not.toMatch(/Nothing is pending/);
    const json = await run('pending', '--json');
    expect(json.code).toBe(3);
    expect(json.stderr).toMatch(/the damage scan broke/);
  }, 30_000);

  it('a settle over a read that threw names the error, never "No open outcome"', async () => {
    const env = await sandbox({ lines: 10 });
    const home = homeDirs();
    const run = (...argv: string[]) => headless(argv, { env: envFor(env.sb.baseUrl, DEMO_KEY, home) });
    failing.damaged = true;
    try {
      const r = await run('pending', '--settle', 'someone', '--as', 'applied', '--confirm', 'someone');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/the intent log could not be read \(.*the damage scan broke\)/);
      expect(r.stderr).not.toMatch(/No open outcome/);
    } finally {
      failing.damaged = false;
    }
  }, 30_000);

  it('the open jobs it could read are checked and listed; the file that did not read is named with what to do', async () => {
    const { proxy, line, run } = await unknownExtend();
    let lists = 0;
    proxy.set({
      onList: () => {
        lists++;
      },
    });
    const kept = '/var/lib/linedesk/intents/0123.jsonl.settled';
    failing.damaged = true;
    failing.path = kept;
    try {
      const listed = await run('pending');
      expect(listed.code).toBe(3);
      // Checked with the service (its list read), then listed as still unknown.
      expect(lists).toBeGreaterThan(0);
      expect(listed.stdout).toContain(line.username);
      expect(listed.stdout).toMatch(/unknown/);
      expect(listed.stderr).toContain(`the intent log could not be read (${kept}: permission denied`);
      expect(listed.stderr).toMatch(/fix it \(its permissions, the disk\)/);
      expect(listed.stderr.split(kept)).toHaveLength(2);
      expect(listed.stderr).not.toMatch(/Nothing is pending/);
      const json = await run('pending', '--json');
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout).unreadable).toMatchObject({ path: kept, openRead: true });
      expect(JSON.parse(json.stdout).open).toEqual([
        expect.objectContaining({ username: line.username, state: 'unknown' }),
      ]);
    } finally {
      failing.damaged = false;
      failing.path = undefined;
    }
  }, 30_000);
});

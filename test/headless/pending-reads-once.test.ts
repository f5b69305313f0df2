/**
 * `linedesk pending` reads the intent log's open jobs and damage once a run, and what it reads is passed
 * along (the recovery, then the report): never read again to list what the recovery read. A read of
 * the damage that fails is said once, with its error, and followed by one read of the open jobs alone
 * (they are still checked). (The recovery's check of a job it took reads that job's version once
 * taken, as every check does: `current`.)
 */
import { describe, expect, it, vi } from 'vitest';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const log = vi.hoisted(() => ({ reads: [] as string[], failDamage: false }));

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const inner = real.fileIntentLog(...args);
      const counted =
        <A extends unknown[], R>(what: string, f: (...a: A) => R) =>
        (...a: A): R => {
          log.reads.push(what);
          return f(...a);
        };
      return {
        ...inner,
        open: counted('open', () => inner.open()),
        damaged: counted('damaged', () => {
          if (log.failDamage) throw new Error('the damage scan broke');
          return inner.damaged!();
        }),
        openAndDamaged: counted('openAndDamaged', () => {
          if (log.failDamage) throw new Error('the damage scan broke');
          return inner.openAndDamaged!();
        }),
        openWithDamage: counted('openWithDamage', (e?: boolean) => inner.openWithDamage!(e)),
      };
    },
  };
});

describe('linedesk pending reads the intent log once', () => {
  it('one read of its open jobs and damage a run; a failed one said once', async () => {
    const env = await sandbox({ lines: 10 });
    const home = homeDirs();
    const run = (...argv: string[]) => headless(argv, { env: envFor(env.sb.baseUrl, DEMO_KEY, home) });
    // A change made first, so the log's directory is there.
    const line = (await env.client.listLines({ limit: 10, type: 'premium' })).lines[0]!;
    expect((await run('extend', line.username, '--yes')).code).toBe(0);

    log.reads = [];
    const clean = await run('pending');
    expect(clean.code).toBe(0);
    expect(log.reads).toEqual(['openAndDamaged']);

    log.reads = [];
    const json = await run('pending', '--json');
    expect(json.code).toBe(0);
    expect(log.reads).toHaveLength(1);

    log.failDamage = true;
    log.reads = [];
    const broken = await run('pending');
    expect(broken.code).toBe(3);
    // The whole read, then its open jobs alone (they are still checked), never more.
    expect(log.reads).toEqual(['openAndDamaged', 'openWithDamage']);
    expect(broken.stderr.split('the damage scan broke')).toHaveLength(2);
    expect(broken.stderr).toMatch(
      /cannot all be told: the intent log could not be read \(.*the damage scan broke\)/,
    );
  }, 30_000);
});

/**
 * The intent directory refuses new files (permission denied): nothing is sent, and what is said names
 * the directory and what to do (not only a file that was never made), as not sent (nothing reached
 * the service), never as the service's refusal.
 */
import * as nodeFs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { exitOf } from '../../src/headless/commands/change-report';
import { EXIT } from '../../src/headless/failure';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** A disk on which nothing in `dir` can be created or written (as after `chmod a-w`; tests may run as root). */
const denyingWrites = (dir: string): Partial<IntentFs> => ({
  openSync: ((p: nodeFs.PathLike, flags?: nodeFs.OpenMode, mode?: nodeFs.Mode) => {
    if (String(p).startsWith(`${dir}/`) && flags !== 'r')
      throw Object.assign(new Error(`EACCES: permission denied, open '${String(p)}'`), {
        code: 'EACCES',
        syscall: 'open',
        path: String(p),
      });
    return nodeFs.openSync(p, flags ?? 'r', mode);
  }) as typeof nodeFs.openSync,
});

async function setup() {
  const { env, proxy, client, dir } = await proxiedSandbox({ lines: 10 });
  const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const changes = createChangeService({
    client,
    target,
    intents: fileIntentLog(dir, undefined, { fs: denyingWrites(dir) }),
    journal: memoryJournal(),
    sleep: async () => {},
  });
  const spent = books(env.sb).ledger.length;
  const nothingSent = () => {
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(spent);
  };
  return { a: a!, dir, changes, nothingSent };
}

/** Names the directory and what to do about its permissions. */
const advises = (text: string | undefined, dir: string) => {
  expect(text).toContain(`in ${dir}`);
  expect(text).toMatch(/permission denied/);
  expect(text).toMatch(/give this user write permission on it.*then try again/);
};

describe('an intent directory that refuses new files', () => {
  it('a single change: not sent, the directory named with what to do', async () => {
    const { a, dir, changes, nothingSent } = await setup();
    const r = await changes.send(
      { op: 'extend', line: a, months: 1, connections: 1, body: null } as never,
      1,
      {
        linesReadAt: Date.now(),
      },
    );
    nothingSent();
    expect(r.outcome).toBe('not sent');
    advises(r.message ?? undefined, dir);
    expect(r.message).toMatch(/then try again\. Nothing reached the service; nothing was charged\.$/);
  }, 30_000);

  it('a bulk job: each line not sent, its reason names the directory', async () => {
    const { a, dir, changes, nothingSent } = await setup();
    const final = await changes.runChange(extendJob('job-denied', [jobLine(a)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    nothingSent();
    expect(final.lines[0]).toMatchObject({ state: 'failed', notSent: true });
    advises(final.lines[0]!.detail, dir);
    // A command says it failed here, not that the service cannot be reached.
    expect(exitOf(final, 0)).toBe(EXIT.failed);
  }, 30_000);
});

/**
 * A second run of a new job that waited for a first run which was refused before `begin`
 * (nothing sent, nothing on disk): `resumed = true` after the wait makes it a resume of a job the
 * log never had, refused, though nothing of it was ever sent.
 */
import { expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { chargesPerLine } from '../helpers/sandbox';
import { proxiedSandbox } from '../services/proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

it('a run queued behind a run refused before begin still sends (nothing had gone)', async () => {
  const { env, client, dir } = await proxiedSandbox({ lines: 10 });
  const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const job = extendJob('job-new2', [jobLine(a!), jobLine(b!)]);
  const log = fileIntentLog(dir);
  let begins = 0;
  const intents = new Proxy(log, {
    get(t, p, r) {
      if (p === 'begin')
        return (...args: unknown[]) => {
          if (++begins === 1) throw new Error('ENOSPC: no space left on device');
          return (t.begin as (...x: unknown[]) => unknown).apply(t, args);
        };
      const v = Reflect.get(t, p, r);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
  const notes: string[] = [];
  const A = createChangeService({
    client,
    target,
    intents,
    journal: memoryJournal(),
    sleep: async () => {},
  } as Parameters<typeof createChangeService>[0]);
  A.subscribe((e) => {
    if (e.type === 'notice') notes.push(e.text);
  });
  const first = A.runChange(job, { bulk: true, linesReadAt: Date.now() });
  const second = A.runChange(job, { bulk: true, linesReadAt: Date.now() });
  const [r1, r2] = await Promise.all([first, second]);
  expect(r1.lines.every((l) => l.state !== 'done')).toBe(true);
  expect({
    second: r2.lines.map((l) => l.state),
    notes,
    ledger: Object.fromEntries(chargesPerLine(env.sb)),
  }).toEqual({
    second: r2.lines.map(() => 'done'),
    notes: [],
    ledger: { [a!.id]: 1, [b!.id]: 1 },
  });
  await A.shutdown(0);
}, 30_000);

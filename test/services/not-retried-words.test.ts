/**
 * A job whose file stays (its end refused) while some lines' last records were refused: those lines
 * are not offered to retry now, and the notice says what the next start does with each kind. A line
 * never sent is offered again; a line that was SENT (its request left; the file still has it
 * `sending`) is checked again with the server, never offered to be sent again.
 */
import { expect, it } from 'vitest';
import { type IntentLog, memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };
const refused = (what: string) => Object.assign(new Error(`EIO: i/o error, ${what}`), { code: 'EIO' });

it('says which lines the next start offers again (never sent) and which it checks again (sent)', async () => {
  const { env, proxy, client } = await proxiedSandbox({ lines: 10 });
  const [real, other] = (await env.client.listLines({ limit: 10 })).lines.filter(
    (l) => !l.is_trial && l.enabled,
  );
  // `ghost`: sent, refused by the service (no such line), its `failed` record refused by the disk.
  // `keep`: its `sending` record refused, so never sent; its `failed` record refused too.
  const ghost = jobLine(other!, { id: 'a0000000-0000-4000-8000-000000000001', username: 'ghost' });
  const keep = jobLine(real!, { username: 'keep' });
  const log = memoryIntentLog();
  const intents: IntentLog = {
    ...log,
    line(jobId, l) {
      if (l.id === ghost.id && l.state === 'failed') throw refused('write');
      if (l.id === keep.id && l.state !== 'pending') throw refused('write');
      log.line(jobId, l);
    },
    end() {
      throw refused('rename');
    },
  };
  const changes = createChangeService({
    client,
    target,
    intents,
    journal: memoryJournal(),
    sleep: async () => {},
  });
  const notes: string[] = [];
  changes.subscribe((e) => {
    if (e.type === 'notice') notes.push(e.text);
  });
  const spent = books(env.sb).ledger.length;
  const final = await changes.runChange(extendJob('job-kept-0001', [ghost, keep]), {
    bulk: true,
    linesReadAt: Date.now(),
  });
  await changes.shutdown(0);
  // Only ghost's request left (refused: nothing charged).
  expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(1);
  expect(books(env.sb).ledger.length).toBe(spent);
  const [g, k] = final.lines;
  expect(g).toMatchObject({ state: 'failed', keptOnDisk: true });
  expect(g!.detail).toMatch(/the next start checks this line again$/);
  expect(k).toMatchObject({ state: 'failed', notSent: true, refusedHere: true });
  expect(k!.detail).toMatch(/the next start offers this line again$/);
  expect(notes.filter((n) => n.startsWith('The intent log could not be written, and'))).toEqual([
    'The intent log could not be written, and the file of job job-kept stays (it could not be ended: the disk failed to read or write (EIO)): the next start offers 1 line (keep) again (never sent) and checks 1 line (ghost) again with the server (its request left: never sent again), so they are not offered to retry now',
  ]);
}, 30_000);

/**
 * A resumed job whose balance window cannot be closed again after `begin` (the disk refuses the
 * append) keeps its never-sent lines pending, offered again, and says so, as every other refusal of
 * a resumed job before sending does (it had ended them "not sent": the resume was lost).
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a resume whose window cannot be closed again', () => {
  it('leaves its never-sent lines pending, offered again (nothing sent), and says why', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter(
      (l) => !l.is_trial && l.enabled,
    );
    const credits = (await env.client.me()).credits;
    const job = extendJob('job-resumed', [jobLine(a!, { state: 'done', detail: 'applied' }), jobLine(b!)], {
      balanceBefore: credits,
    });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const other = fileIntentLog(dir, { pid: process.ppid, start: null });
    const mine = fileIntentLog(dir);
    let raced = false;
    const intents: IntentLog = {
      ...mine,
      begin(j) {
        if (j.id === job.id && !raced) {
          raced = true;
          // Another linedesk begins a job of this account (spending from now on).
          other.begin(extendJob('job-other', [jobLine(c!)], { balanceBefore: null }));
        }
        mine.begin(j);
      },
      closeBalanceWindow(id) {
        if (id === job.id)
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        mine.closeBalanceWindow(id);
      },
    };
    const A = createChangeService({
      client,
      target,
      intents,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const notes: string[] = [];
    A.subscribe((e) => {
      if (e.type === 'notice') notes.push(e.text);
    });
    const spent = books(env.sb).ledger.length;
    await A.recoverIntents();
    notes.length = 0;
    await A.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(raced).toBe(true);
    expect(books(env.sb).ledger.length).toBe(spent); // nothing sent (holds today)
    const logged = fileIntentLog(dir).current!([job.id]).get(job.id);
    expect(
      notes.some((n) => n.startsWith('Not resumed, nothing sent: the intent log cannot be written')),
    ).toBe(true);
    expect({
      kind: logged?.kind,
      b: logged && 'job' in logged ? logged.job.lines.find((l) => l.id === b!.id)?.state : null,
    }).toEqual({ kind: 'open', b: 'pending' });
  }, 30_000);
});

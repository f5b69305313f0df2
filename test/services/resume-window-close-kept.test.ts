/**
 * A resume writes its job's file whole (`begin`) from the version it read once it took the job. A
 * close of the job's balance window another linedesk appended in between (it began a job of this
 * account, spending from then on) goes with the old file: the resume reads the log again once its
 * file is written, and closes the window again while another job is spending. Else its checks would
 * count the other job's charges as its own.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a resume and a window closed by another linedesk as it began', () => {
  it('keeps the window closed', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter(
      (l) => !l.is_trial && l.enabled,
    );
    const credits = (await env.client.me()).credits;
    // Its window open (a line applied from it), one line never sent.
    const job = extendJob('job-resumed', [jobLine(a!, { state: 'done', detail: 'applied' }), jobLine(b!)], {
      balanceBefore: credits,
    });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    // Another linedesk (a live process that is not this one) begins a job of this account and closes
    // the open windows, just after this resume read the log and before its file is written again.
    const other = fileIntentLog(dir, { pid: process.ppid, start: null });
    const mine = fileIntentLog(dir);
    let raced = false;
    const intents: IntentLog = {
      ...mine,
      begin(j) {
        if (j.id === job.id && !raced) {
          raced = true;
          other.begin(extendJob('job-other', [jobLine(c!)], { balanceBefore: null }));
          other.closeBalanceWindow(job.id);
        }
        mine.begin(j);
      },
    };
    const A = createChangeService({
      client,
      target,
      intents,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    await A.recoverIntents();
    await A.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(raced).toBe(true);
    const logged = fileIntentLog(dir).current!([job.id]).get(job.id);
    expect(logged && 'job' in logged ? logged.job.balanceBefore : 'none').toBeNull();
  }, 30_000);
});

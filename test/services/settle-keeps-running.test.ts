/**
 * A settle by hand of a job this process runs now (a resume still sending) settles nothing and
 * releases nothing: the run holds the job until it ends. Released by a settle that found nothing
 * open (the take counts a claim this process holds as its own), another linedesk could take the job
 * and send its never-sent lines too.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { gated } from '../helpers/gated';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a settle by hand during a run of the same job', () => {
  it('leaves the running job held by this process', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const extend = gated(client, 'extendLine');
    const A = createChangeService({
      client: extend.client,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
      bulkConcurrency: 1,
    });
    const job = extendJob('job-running', [jobLine(a!), jobLine(b!)]);
    const run = A.runChange(job, { bulk: true, linesReadAt: Date.now() });
    await extend.reached();
    // Refused, whichever line: the run's (a in flight, b never sent yet).
    for (const l of [a!, b!])
      expect(A.settleByHand(job.id, l.id, 'not applied')).toEqual({ ok: false, reason: 'in-use' });
    const B = fileIntentLog(dir, { pid: process.ppid, start: null });
    const heldForB = B.heldElsewhere(job.id);
    extend.open();
    await run;
    expect(heldForB).not.toBeNull();
  }, 30_000);
});

/**
 * The offer takes its jobs (`takeToOffer`) without marking them in use. A settle by
 * hand in the same process then claims the job (a claim this process holds counts as its own: true)
 * and, settling nothing, releases it (`free()`): the owner file the offer held is gone while the offer
 * still shows the job, so another linedesk can take it.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a settle by hand of a job the offer holds', () => {
  it('does not release the offer’s claim', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    // Never sent at all: the offer's check skips it, its take stays the offer's.
    const job = extendJob('job-unsent', [jobLine(a!), jobLine(b!)], { balanceBefore: null });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const A = createChangeService({
      client,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const offer = await A.recoverIntents();
    expect(offer.map((r) => r.job.id)).toEqual([job.id]);
    const other = fileIntentLog(dir, { pid: process.ppid, start: null });
    expect(other.heldElsewhere(job.id)).not.toBeNull();
    expect(A.settleByHand(job.id, a!.id, 'applied')).toEqual({
      ok: false,
      reason: 'settled',
      how: 'line settled',
    }); // never sent: nothing open to settle
    expect(other.heldElsewhere(job.id)).not.toBeNull();
    await A.shutdown(0);
  }, 30_000);
});

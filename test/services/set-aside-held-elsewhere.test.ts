/**
 * Esc on the offer (the service's `setAside`) takes each job before it reads and ends it: a job
 * another live linedesk holds now (it resumed it after this offer's check released it) is left to
 * it, open and held, never ended under it (its file renamed, that linedesk's owner file removed).
 * One free is set aside as the log has it now: ended when no outcome is unknown, else released.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('Esc (set aside) on the offer', () => {
  it('leaves a job another live linedesk holds to its holder; sets aside the free ones as logged', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b, c, d, e] = (await env.client.listLines({ limit: 10 })).lines.filter(
      (l) => !l.is_trial && l.enabled,
    );
    const applied = { state: 'done' as const, detail: 'applied' };
    const held = extendJob('job-held', [jobLine(a!, applied), jobLine(b!)], { balanceBefore: null });
    // Another linedesk (a live process that is not this one) resumed it and holds it now.
    fileIntentLog(dir, { pid: process.ppid, start: null }).begin(held);
    // Two free jobs: one whose outcomes are all known, a line never sent (ended: set aside), one with
    // an unknown line (released as it is: the next start offers it).
    const known = extendJob('job-known', [jobLine(c!, applied), jobLine(e!)], { balanceBefore: null });
    const unknown = extendJob('job-unknown', [jobLine(d!, { state: 'unknown', sentAt: Date.now() })], {
      balanceBefore: null,
    });
    const setup = fileIntentLog(dir);
    for (const j of [known, unknown]) {
      setup.begin(j);
      setup.release(j.id);
    }
    const A = createChangeService({ client, target, intents: fileIntentLog(dir), journal: memoryJournal() });
    A.setAside([held.id, known.id, unknown.id]);
    const log = fileIntentLog(dir);
    expect({
      open: log
        .open()
        .map((j) => j.id)
        .sort(),
      heldBy: log.heldElsewhere(held.id),
    }).toEqual({ open: [held.id, unknown.id], heldBy: expect.stringContaining(String(process.ppid)) });
  }, 30_000);
});

/**
 * How often one operation reads the intent log (each read lists its directory and reads every job
 * file). The offer's check again reads it once to decide, then each job once it took it, just before
 * its own check (a version read before the checks of the jobs before it may be stale: a background
 * check may have settled it meanwhile). A resume reads it once it holds the job, then as its balance
 * window opens (before and after the balance is read); the question of which windows to close asks
 * the window's last read.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { recoveredOf } from '../../src/services/changes/recovery';
import { createChangeService } from '../../src/services/changes/service';
import type { ServiceClient } from '../../src/services/client';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** An intent log that counts its reads (of open jobs, ended ones, or given jobs' versions). */
function counted(log: IntentLog) {
  const reads: string[] = [];
  const read = <T>(what: string, then: () => T): T => {
    reads.push(what);
    return then();
  };
  const intents: IntentLog = {
    ...log,
    open: () => read('open', () => log.open()),
    settled: () => read('settled', () => log.settled?.() ?? []),
    openWithDamage: (expected) => read('openWithDamage', () => log.openWithDamage!(expected)),
    current: (ids) => read('current', () => log.current!(ids)),
  };
  return { intents, reads };
}

describe('reads of the intent log', () => {
  it('the offer checked again: once to decide, then each job once taken (four reads for three jobs)', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const lines = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const sentAt = Date.now() - 3 * 3_600_000;
    const balanceBefore = (await env.client.me()).credits;
    const setup = fileIntentLog(dir);
    const jobs = [0, 1, 2].map((i) =>
      extendJob(`job-${i}`, [jobLine(lines[i]!, { state: 'unknown', sentAt, detail: 'sent; no answer' })], {
        balanceBefore,
      }),
    );
    for (const job of jobs) {
      setup.begin(job);
      setup.release(job.id);
    }
    const { intents, reads } = counted(fileIntentLog(dir));
    const changes = createChangeService({
      client,
      target,
      intents,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const after = await changes.recheckRecovered(jobs.map(recoveredOf));
    expect(after.map((r) => r.job.lines[0]!.state)).toEqual(['failed', 'failed', 'failed']);
    expect(reads.filter((r) => r === 'current')).toHaveLength(4);
  }, 30_000);

  it('a resume: three reads before its first request', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const job = extendJob('job-resumed', [jobLine(a!)], { balanceBefore: (await env.client.me()).credits });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const { intents, reads } = counted(fileIntentLog(dir));
    let before: number | null = null;
    const counting: ServiceClient = {
      ...client,
      extendLine: (...args) => {
        before ??= reads.length;
        return client.extendLine(...args);
      },
    };
    const changes = createChangeService({
      client: counting,
      target,
      intents,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(final.lines[0]!.state).toBe('done');
    expect(before).toBe(3);
  }, 30_000);
});

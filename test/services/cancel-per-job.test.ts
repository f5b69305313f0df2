/**
 * A cancel reaches only the job it was pressed for: the service keeps one cancel per run, so a run
 * started meanwhile does not undo it, and a cancel of another job (a single change run alongside)
 * does not stop this one. A cancel stops only lines not yet sent; nothing is sent twice.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { BulkJob } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { chargesPerLine } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

const states = (j: BulkJob) => j.lines.map((l) => l.state);

/**
 * A bulk job of four lines runs; as its first line is sent, `during` cancels one of the two jobs and
 * starts a single change (another job) beside it, in its own order. Returns what each run ended with
 * and how many charges each charged line has.
 */
async function cancelDuringRun(
  during: (go: { cancel: (job: 'bulk' | 'single') => void; startSingle: () => void }) => void,
) {
  const { env, client, dir } = await proxiedSandbox({ lines: 20 });
  const lines = (await env.client.listLines({ limit: 20 })).lines.filter((l) => !l.is_trial && l.enabled);
  const service = createChangeService({
    client,
    target,
    intents: fileIntentLog(dir),
    journal: memoryJournal(),
    bulkConcurrency: 1,
    sleep: async () => {},
  });
  const bulk = extendJob(
    'job-bulk',
    lines.slice(0, 4).map((l) => jobLine(l)),
  );
  const other = extendJob('job-single', [jobLine(lines[5]!)]);
  let single: Promise<BulkJob> | undefined;
  const run = service.runChange(bulk, {
    bulk: true,
    linesReadAt: Date.now(),
    onLine: (l) => {
      if (l.state !== 'sending' || single) return;
      during({
        cancel: (job) => service.cancel(job === 'bulk' ? bulk.id : other.id),
        startSingle: () => {
          single = service.runChange(other, { linesReadAt: Date.now() });
        },
      });
    },
  });
  const result = {
    bulk: states(await run),
    single: states(await single!),
    charges: [...chargesPerLine(env.sb).values()],
  };
  await service.shutdown(0);
  return result;
}

describe('a cancel', () => {
  it('is not undone by another run starting', async () => {
    const result = await cancelDuringRun(({ cancel, startSingle }) => {
      cancel('bulk');
      startSingle();
    });
    expect(result).toEqual({
      bulk: ['done', 'cancelled', 'cancelled', 'cancelled'],
      single: ['done'],
      charges: [1, 1],
    });
  }, 30_000);

  it('of another job does not stop this one', async () => {
    const result = await cancelDuringRun(({ cancel, startSingle }) => {
      startSingle();
      cancel('single');
    });
    expect(result).toEqual({
      bulk: ['done', 'done', 'done', 'done'],
      single: ['cancelled'],
      charges: [1, 1, 1, 1],
    });
  }, 30_000);
});

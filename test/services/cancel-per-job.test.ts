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
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

async function setUp() {
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
  const perLine = () => {
    const n = new Map<string, number>();
    for (const r of books(env.sb).ledger) n.set(r.line_id, (n.get(r.line_id) ?? 0) + 1);
    return [...n.values()];
  };
  return { service, bulk, other, perLine };
}

const states = (j: BulkJob) => j.lines.map((l) => l.state);

describe('a cancel', () => {
  it('is not undone by another run starting', async () => {
    const { service, bulk, other, perLine } = await setUp();
    let single: Promise<BulkJob> | undefined;
    const run = service.runChange(bulk, {
      bulk: true,
      linesReadAt: Date.now(),
      onLine: (l) => {
        if (l.state !== 'sending' || single) return;
        service.cancel(bulk.id);
        single = service.runChange(other, { linesReadAt: Date.now() });
      },
    });
    const done = await run;
    expect(states(done)).toEqual(['done', 'cancelled', 'cancelled', 'cancelled']);
    expect(states(await single!)).toEqual(['done']);
    expect(perLine()).toEqual([1, 1]);
    await service.shutdown(0);
  }, 30_000);

  it('of another job does not stop this one', async () => {
    const { service, bulk, other, perLine } = await setUp();
    let single: Promise<BulkJob> | undefined;
    const run = service.runChange(bulk, {
      bulk: true,
      linesReadAt: Date.now(),
      onLine: (l) => {
        if (l.state !== 'sending' || single) return;
        single = service.runChange(other, { linesReadAt: Date.now() });
        service.cancel(other.id);
      },
    });
    expect(states(await run)).toEqual(['done', 'done', 'done', 'done']);
    expect(states(await single!)).toEqual(['cancelled']);
    expect(perLine()).toEqual([1, 1, 1, 1]);
    await service.shutdown(0);
  }, 30_000);
});

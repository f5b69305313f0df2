/**
 * Issue 23, item 8(a): a request never leaves without its `sending` record on disk. Three guards hold
 * it, and mutation testing found no test that failed when any one was removed:
 *   - engine.ts JobState.update: a throwing onLine for `sending` undoes the line and rethrows;
 *   - engine.ts sendOne: a failed `sending` write ends the line "not sent" and returns;
 *   - services/changes/service.ts onLine: an intent-log write that fails for `sending` is rethrown (for the other
 *     states it is logged and the change goes on: the request has left already).
 * Against the sandbox over HTTP: the ledger and the line say whether anything was sent.
 */
import { describe, expect, it, vi } from 'vitest';
import { runJob } from '../../src/services/changes/engine';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';

const ENOSPC = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('a failed intent write before sending stops the request', () => {
  it('the engine: the line whose `sending` cannot be written is not sent, the others are', async () => {
    const env = await storeOnSandbox({ lines: 20, credits: 100 });
    const lines = (await env.client.listLines({ limit: 3, type: 'premium' })).lines;
    const blocked = lines[1]!;
    const job = extendJob(
      'job-enospc',
      lines.map((l) => jobLine(l, { cost: 1 })),
      { balanceBefore: 100 },
    );
    const seen: string[] = [];
    const final = await runJob(job, {
      client: env.client,
      concurrency: 1,
      cancelled: () => false,
      onLine: (l) => {
        seen.push(`${l.username}:${l.state}`);
        if (l.id === blocked.id && l.state === 'sending') throw ENOSPC();
      },
    });
    const line = final.lines.find((l) => l.id === blocked.id)!;
    expect(line).toMatchObject({ state: 'failed', provenNotApplied: true });
    expect(line.detail).toMatch(/^not sent: the intent log could not be written/);
    // Undone: the line never claims a request left (the hold window would count from it).
    expect(line.sentAt).toBeUndefined();
    // Nothing reached the service for it; the other two were sent and charged once each.
    const ledger = books(env.sb).ledger;
    expect(ledger.map((r) => r.line_id).sort()).toEqual([lines[0]!.id, lines[2]!.id].sort());
    const after = (await env.client.listLines({ search: blocked.username })).lines[0]!;
    expect(after.exp_date?.ms).toBe(blocked.exp_date?.ms);
    expect(final.lines.filter((l) => l.state === 'done')).toHaveLength(2);
  });

  it('the store: an intent log that cannot write `sending` leaves the change "not sent", nothing charged', async () => {
    const intents = memoryIntentLog();
    const line = vi.fn(intents.line.bind(intents));
    const failing = {
      ...intents,
      line: (jobId: string, l: Parameters<typeof intents.line>[1]) => {
        if (l.state === 'sending') throw ENOSPC();
        line(jobId, l);
      },
    };
    const env = await storeOnSandbox({ lines: 20 }, { intents: failing });
    await env.store.getState().loadAccount();
    await env.store.getState().loadCatalog();
    const target = (await env.client.listLines({ limit: 1, type: 'premium' })).lines[0]!;
    await openQuoted(env.store, { op: 'extend', line: target });
    await env.store.getState().confirmAction();
    const a = env.store.getState().action!;
    expect(a.phase).toBe('failed');
    expect(a.job!.lines[0]!.detail).toMatch(/^not sent: the intent log could not be written.*ENOSPC/);
    expect(books(env.sb).ledger).toHaveLength(0);
    const after = (await env.client.listLines({ search: target.username })).lines[0]!;
    expect(after.exp_date?.ms).toBe(target.exp_date?.ms);
  });
});

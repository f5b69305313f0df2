/**
 * A resume the user cancels while its read again of the lines is under way, the read then failing:
 * the job ends cancelled, never sent (nothing offered again), as when the read succeeds. Not the
 * read's refusal, which leaves a resume offered: the user's cancel is looked at first.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { fileIntentLog } from '../../src/app/intent-file';
import { type BulkJob, toBulkLine } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { type ChangeService, createChangeService } from '../../src/services/changes/service';
import { books, DEMO_KEY } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';
import { proxiedSandbox } from './proxied-sandbox';

const TARGET = 'sandbox:test';

describe('a resume cancelled during its read again', () => {
  it('ends cancelled when the read then fails: not offered again, nothing charged', async () => {
    const { env, proxy, dir } = await proxiedSandbox({ lines: 40 });
    const premium = (await env.client.listLines({ limit: 100 })).lines.filter(
      (l) => !l.is_trial && l.enabled && l.connections < 5,
    );
    const job: BulkJob = {
      id: 'resumed-job-cancel',
      op: 'extend',
      months: 1,
      connections: 1,
      target: TARGET,
      createdAt: new Date().toISOString(),
      balanceBefore: 1_000,
      lines: premium.slice(0, 2).map((l) => ({ ...toBulkLine(l), cost: 1 })),
    };
    const log = fileIntentLog(dir);
    log.begin(job);
    log.release(job.id);
    const real = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(() => real.close());
    // The user cancels while the read is on its way; the read then fails (a 503, say).
    const changes: ChangeService = createChangeService({
      client: {
        ...real,
        listLines: async () => {
          changes.cancel(job.id);
          throw new Error('503 service unavailable');
        },
      },
      target: { id: TARGET, label: 'SANDBOX' },
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(job, { bulk: true });
    expect(books(env.sb).ledger.length).toBe(charged);
    expect(final.lines.some((l) => l.state === 'pending')).toBe(false);
    expect(
      fileIntentLog(dir)
        .open()
        .map((j) => j.id),
    ).toEqual([]);
  });
});

/**
 * A review found: service-types.ts says a verdict settled by hand that the intent log did not keep is
 * given back `keptOnDisk` and stays held here (the log still has it open; never "free"). The service
 * marks only a verdict of "not applied" so (`notRetried` marks retryable lines): one of "applied"
 * whose record the disk refused comes back free, while the log still has the change open (unknown) and
 * the next start checks it again.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a settle by hand of "applied" the intent log refused', () => {
  it('is given back kept on disk and stays held, as the log still has it open', async () => {
    const env = await sandbox({ lines: 10 });
    const [a, b] = (await env.client.listLines({ limit: 10, type: 'premium' })).lines;
    const sentAt = Date.now() - 60_000;
    const job = extendJob('job-two', [
      jobLine(a!, { state: 'unknown', sentAt, detail: 'sent; no answer yet' }),
      jobLine(b!, { state: 'unknown', sentAt, detail: 'sent; no answer yet' }),
    ]);
    const log = memoryIntentLog();
    log.begin(job);
    const changes = createChangeService({
      client: {} as ApiClient,
      target,
      intents: log,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    log.failNext = 1; // the verdict's record
    const settled = changes.settleByHand(job.id, a!.id, 'applied');
    expect(settled.ok).toBe(true);
    // The log still has the change open.
    expect(log.open()[0]!.lines.find((l) => l.id === a!.id)?.state).toBe('unknown');
    const line = settled.ok ? settled.job.lines.find((l) => l.id === a!.id) : undefined;
    expect(line?.keptOnDisk).toBe(true);
    expect(changes.open().unsettled.has(a!.id)).toBe(true);
  }, 30_000);
});

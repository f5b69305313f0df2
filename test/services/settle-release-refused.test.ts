/**
 * A settle by hand of one line of a job whose other lines are still open ends by releasing the job;
 * a disk that refuses that release never makes the settle throw (its verdict was recorded: "could not
 * settle" would be false). Whether the verdict's record is on disk is read back: a record the disk
 * refused too leaves the line open in the log, so the settle gives it back kept on disk (never called
 * free) and the line stays held here as it is on disk.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

async function twoUnknown() {
  const env = await sandbox({ lines: 10 });
  const [a, b] = (await env.client.listLines({ limit: 10, type: 'premium' })).lines;
  const sentAt = Date.now() - 60_000;
  const job = extendJob('job-two', [
    jobLine(a!, { state: 'unknown', sentAt, detail: 'sent; no answer yet' }),
    jobLine(b!, { state: 'unknown', sentAt, detail: 'sent; no answer yet' }),
  ]);
  const log = memoryIntentLog();
  log.begin(job);
  const intents = {
    ...log,
    release() {
      throw Object.assign(new Error('EIO: i/o error, unlink'), {
        code: 'EIO',
        path: '/intents/job-two.owner',
      });
    },
  };
  const notices: string[] = [];
  const changes = createChangeService({
    client: {} as ApiClient,
    target,
    intents,
    journal: memoryJournal(),
    sleep: async () => {},
  });
  changes.subscribe((e) => {
    if (e.type === 'notice') notices.push(e.text);
  });
  return { a: a!, job, log, changes, notices };
}

describe('a settle by hand whose release the disk refuses', () => {
  it('its verdict recorded: settled, not thrown; the release said', async () => {
    const { a, job, log, changes, notices } = await twoUnknown();
    const settled = changes.settleByHand(job.id, a.id, 'not applied');
    expect(settled.ok).toBe(true);
    const line = settled.ok ? settled.job.lines.find((l) => l.id === a.id) : undefined;
    expect(line).toMatchObject({ state: 'failed', settledAfterUnknown: 'by hand' });
    expect(line?.keptOnDisk).toBeUndefined();
    expect(log.open()[0]!.lines.find((l) => l.id === a.id)?.state).toBe('failed');
    expect(notices.join('\n')).toMatch(/could not be written|cannot be written/);
    expect(changes.open().unsettled.has(a.id)).toBe(false);
  }, 30_000);

  it('its record refused too: given back kept on disk, still held here, never thrown', async () => {
    const { a, job, log, changes } = await twoUnknown();
    log.failNext = 1; // the verdict's record
    const settled = changes.settleByHand(job.id, a.id, 'not applied');
    expect(settled.ok).toBe(true);
    const line = settled.ok ? settled.job.lines.find((l) => l.id === a.id) : undefined;
    expect(line?.keptOnDisk).toBe(true);
    expect(log.open()[0]!.lines.find((l) => l.id === a.id)?.state).toBe('unknown');
    expect(changes.open().unsettled.has(a.id)).toBe(true);
  }, 30_000);
});

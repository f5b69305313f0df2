/**
 * The offer journals each job it takes from the log's version read once taken, not from the version
 * read before the take: another linedesk may settle a line in between (then let the job go). From the
 * older read, the line's "unknown" would be journaled after its verdict (a reader keeps the last).
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('the offer at start, a line settled elsewhere between the read and the take', () => {
  it('journals the line as the log has it once taken', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const unknown = jobLine(a!, { state: 'unknown', sentAt: Date.now() - 60_000 });
    const job = extendJob('job-settled', [unknown], { balanceBefore: null });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const mine = fileIntentLog(dir);
    let settled = false;
    const intents: IntentLog = {
      ...mine,
      claim(id) {
        if (id === job.id && !settled) {
          // Another linedesk's check, just before this take: the line applied, the job free again.
          settled = true;
          const other = fileIntentLog(dir, { pid: process.ppid, start: null });
          other.claim(id);
          other.line(id, { ...unknown, state: 'done', detail: 'applied: seen on the server' });
          other.release(id);
        }
        return mine.claim(id);
      },
    };
    const journal = memoryJournal();
    const A = createChangeService({ client, target, intents, journal, sleep: async () => {} });
    await A.recoverIntents();
    expect(settled).toBe(true);
    expect(journal.entries.filter((e) => e.lineId === a!.id).map((e) => e.outcome)).toEqual(['applied']);
  }, 30_000);
});

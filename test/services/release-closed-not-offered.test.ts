/**
 * A review found: `letGo` says of every release the disk refuses that the job "is offered again at the
 * next start". The recovery (`takeToOffer`) and a check (`checkHeld`) also release a job the log has
 * ended since (settled elsewhere): nothing of it is offered again, at the next start or ever. The
 * notice then says something untrue about what the log keeps.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a refused release of a job ended meanwhile', () => {
  it('never says the ended job is offered again at the next start', async () => {
    const env = await sandbox({ lines: 10 });
    const [a] = (await env.client.listLines({ limit: 10, type: 'premium' })).lines;
    const job = extendJob('job-ended', [
      jobLine(a!, { state: 'unknown', sentAt: Date.now() - 60_000, detail: 'sent; no answer yet' }),
    ]);
    const log = memoryIntentLog();
    log.begin(job);
    // Read as open (the copy the recovery goes by), then ended by another linedesk before it is taken.
    const read = { jobs: log.open(), damage: [] };
    log.end(job.id);
    const notices: string[] = [];
    const changes = createChangeService({
      client: {} as ApiClient,
      target,
      intents: {
        ...log,
        release() {
          throw Object.assign(new Error('EIO: i/o error, unlink'), { code: 'EIO', path: '/i/job.owner' });
        },
      },
      journal: memoryJournal(),
      sleep: async () => {},
    });
    changes.subscribe((e) => {
      if (e.type === 'notice') notices.push(e.text);
    });
    expect(await changes.recoverIntents(() => read)).toEqual([]);
    expect(notices.join('\n')).toMatch(/cannot be written/);
    expect(notices.join('\n')).not.toMatch(/offered again at the next start/);
  }, 30_000);
});

/**
 * A run of a new job (not an offer's) waits for another run of the same job in this
 * process (`runChange`'s wait), then runs from its own copy (every line pending): `begin` writes the
 * file afresh and each line is sent, and charged, a second time. After a wait the log is the truth.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('the same new job run twice in one process', () => {
  it('sends each line once', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const job = extendJob('job-new', [jobLine(a!), jobLine(b!)]);
    const A = createChangeService({
      client,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const first = A.runChange(job, { bulk: true, linesReadAt: Date.now() });
    const second = A.runChange(job, { bulk: true, linesReadAt: Date.now() });
    await Promise.all([first, second]);
    const perLine = new Map<string, number>();
    for (const r of books(env.sb).ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
    expect(Object.fromEntries(perLine)).toEqual({ [a!.id]: 1, [b!.id]: 1 });
    await A.shutdown(0);
  }, 30_000);
});

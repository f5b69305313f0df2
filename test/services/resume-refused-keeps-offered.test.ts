/**
 * A resume refused before anything is sent keeps its job offered, whatever refused it: here the
 * intent log, which cannot take the job's `begin`, or the record closing another job's balance
 * window. Nothing is sent; the job is released as the log has it, its lines never sent, offered at
 * the next start with the same count; the notice says this attempt sent and charged nothing, and when
 * the job is offered. (The read again that fails,
 * and a window of its own it cannot close again: change-service-fresh.test.ts,
 * resume-reclose-fails-keeps-unsent.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';
import { interruptedBesideOpen, nextStartOffers } from './resume-beside-open';

const target = { id: 'sandbox:test', label: 'SANDBOX' };
const diskFull = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('a resume refused before sending', () => {
  it.each(['begin', 'closing another job’s window'] as const)(
    'by the intent log (%s): nothing sent, the job offered again with its lines never sent, said',
    async (refusal) => {
      const { env, proxy, client, dir } = await proxiedSandbox({ lines: 10 });
      const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter(
        (l) => !l.is_trial && l.enabled,
      );
      const job = extendJob('job-resumed', [jobLine(a!), jobLine(b!)], { balanceBefore: null });
      interruptedBesideOpen(dir, job, c!);
      const mine = fileIntentLog(dir);
      const changes = createChangeService({
        client,
        target,
        intents: {
          ...mine,
          begin(j) {
            if (refusal === 'begin' && j.id === job.id) throw diskFull();
            mine.begin(j);
          },
          closeBalanceWindow(id) {
            if (refusal !== 'begin' && id === 'job-another') throw diskFull();
            mine.closeBalanceWindow(id);
          },
        },
        journal: memoryJournal(),
        sleep: async () => {},
      });
      const notes: string[] = [];
      changes.subscribe((e) => {
        if (e.type === 'notice') notes.push(e.text);
      });
      const spent = books(env.sb).ledger.length;
      const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
      expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
      expect(books(env.sb).ledger.length).toBe(spent);
      expect(final.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
      expect(
        notes.some((n) =>
          /^Not resumed: the intent log cannot be written \(the disk is full \(ENOSPC\)\): free space on the disk that holds its files, then try again\. This attempt sent nothing and charged nothing; job job-resu is offered at the next start$/.test(
            n,
          ),
        ),
      ).toBe(true);
      // The next start offers it, released, its two lines never sent.
      const offered = await nextStartOffers(env.client, dir);
      expect(offered.find((r) => r.job.id === job.id)?.unsent).toBe(2);
    },
    30_000,
  );
});

/**
 * A resumed job whose balance window cannot be closed again after `begin` (the disk refuses the
 * append) keeps its never-sent lines pending, offered again, and says so, as every other refusal of
 * a resumed job before sending does (it had ended them "not sent": the resume was lost).
 */
import { describe, expect, it } from 'vitest';
import { books } from '../helpers/sandbox';
import { racedResume } from './raced-resume';

describe('a resume whose window cannot be closed again', () => {
  it('leaves its never-sent lines pending, offered again (nothing sent), and says why', async () => {
    // Another linedesk begins a job of this account (spending from now on) as the resume begins; the
    // resume's close of its own window is refused by the disk.
    const { env, job, b, service, raced, logged } = await racedResume({
      mine: (mine, id) => ({
        closeBalanceWindow(j) {
          if (j === id) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          mine.closeBalanceWindow(j);
        },
      }),
    });
    const notes: string[] = [];
    service.subscribe((e) => {
      if (e.type === 'notice') notes.push(e.text);
    });
    const spent = books(env.sb).ledger.length;
    await service.recoverIntents();
    notes.length = 0;
    await service.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(raced()).toBe(true);
    expect(books(env.sb).ledger.length).toBe(spent); // nothing sent (holds today)
    const now = logged();
    expect(notes.some((n) => n.startsWith('Not resumed: the intent log cannot be written'))).toBe(true);
    expect({
      kind: now?.kind,
      b: now && 'job' in now ? now.job.lines.find((l) => l.id === b.id)?.state : null,
    }).toEqual({ kind: 'open', b: 'pending' });
  }, 30_000);
});

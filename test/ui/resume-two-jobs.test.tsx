/**
 * Two interrupted jobs left lines never sent: Enter resumes one job (the first with lines never
 * sent), and the offer says so, by job, with what waits (the other job's lines never sent, offered
 * again once the resumed job's results are closed: resume-next.test.tsx); Esc's words say what it
 * keeps (a job with unknown outcomes, its lines never sent offered again at the next start). After
 * Enter the other job is left in the log as it was (released, nothing ended): a next start, if this
 * one stops first, offers it again.
 */
import { describe, expect, it } from 'vitest';
import { renderApp, storeOnSandbox } from '../helpers/app';
import { resumeSandbox, twoJobs } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';

const offer = (f: string) =>
  f
    .split('\n')
    .filter((r) => r.startsWith('│') || r.startsWith('╰') || r.startsWith('└'))
    .map((r) => r.slice(1).replace(/│\s*$/, '').trim())
    .join('\n');

describe('the offer of two jobs with lines never sent', () => {
  it('Enter says and does one job; the other waits', async () => {
    const { env, client, intents } = await resumeSandbox();
    const [a, b, c, d, e] = (await env.client.listLines({ limit: 5 })).lines;
    const released: string[] = [];
    const release = intents.release.bind(intents);
    intents.release = (id) => {
      released.push(id);
      release(id);
    };
    // The first: one line applied, two never sent. The second: one line sent just now whose outcome
    // is unknown (it stays unknown in its hold window), two never sent.
    twoJobs(
      intents,
      [a!, b!, c!],
      [jobLine(d!, { state: 'unknown', sentAt: Date.now() }), jobLine(e!), jobLine(a!)],
    );
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame((f) => f.includes('Enter resumes the 2 lines never sent of job aaaaaaaa'));
    const shown = offer(app.frame());
    expect(shown).toContain(
      'Enter resumes one job: 2 lines never sent in 1 other job are offered again after it',
    );
    expect(shown).toContain(
      'Esc keeps the job with unknown outcomes: 2 lines never sent are offered again at the next start',
    );
    expect(app.frame()).not.toContain('resumes the 4 lines');
    released.length = 0;
    await app.confirm('resume.yes');
    await app.waitFrame(() => app.store.getState().bulk?.phase === 'done');
    expect(app.store.getState().bulk?.job.id).toBe('aaaaaaaa-first');
    // The second job was not resumed: left in the log as it was, released (for this session's next
    // offer, or the next start).
    expect(released).toContain('bbbbbbbb-second');
    const left = intents.open().find((j) => j.id === 'bbbbbbbb-second');
    expect(left?.lines.filter((l) => l.state === 'pending').map((l) => l.id)).toEqual([e!.id, a!.id]);
  });

  it('Esc keeps a job with unknown outcomes: its lines never sent are offered again at the next start', async () => {
    const { env, client, intents } = await resumeSandbox();
    const [a, b] = (await env.client.listLines({ limit: 2 })).lines;
    intents.begin(
      extendJob('cccccccc-kept', [jobLine(a!, { state: 'unknown', sentAt: Date.now() }), jobLine(b!)]),
    );
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame((f) =>
      offer(f).includes(
        'Esc keeps the job with unknown outcomes: 1 line never sent is offered again at the next start',
      ),
    );
    await app.press('resume.no');
    await app.waitFrame(() => app.store.getState().recovery === null);
    // The next start offers it again, its line never sent with it.
    const next = await storeOnSandbox({}, { client, intents }, env);
    await next.store.getState().recoverIntents();
    const again = next.store.getState().recovery?.jobs.find((r) => r.job.id === 'cccccccc-kept');
    expect(again?.unsent).toBe(1);
  });
});

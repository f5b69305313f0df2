/**
 * Enter resumes one job of the offer; the others wait. Once the resumed job has ended and its
 * results are closed, the next is offered in the same session (no restart), checked again and
 * counted as the intent log has it now; a job that needs nothing any more is not offered.
 */
import { describe, expect, it } from 'vitest';
import { renderApp } from '../helpers/app';
import { offer, resumeSandbox, twoJobs } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';
import { slowExtends } from '../helpers/slow-extends';

describe('the next job of the offer', () => {
  it('is offered again, with its counts, once the resumed job has ended and its results are closed', async () => {
    const { env, client, intents } = await resumeSandbox();
    const [a, b, c, d, e, f] = (await env.client.listLines({ limit: 6 })).lines;
    twoJobs(
      intents,
      [a!, b!, c!],
      [jobLine(d!, { state: 'failed', detail: 'not applied' }), jobLine(e!), jobLine(f!)],
    );
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame((fr) => fr.includes('Enter resumes the 2 lines never sent of job aaaaaaaa'));
    await app.confirm('resume.yes');
    await app.waitFrame(() => app.store.getState().bulk?.phase === 'done');
    expect(app.store.getState().bulk?.job.id).toBe('aaaaaaaa-first');
    // The results stay until closed; then the job left waiting is offered, as the log has it.
    expect(app.store.getState().recovery).toBeNull();
    await app.press('bulk.close');
    await app.waitFrame(
      (fr) => offer(fr).includes('job bbbbbbbb') && fr.includes('Enter resumes the 2 lines never sent'),
    );
    expect(offer(app.frame())).toContain('0 done · 1 failed · 0 unknown · 2 never sent');
    expect(offer(app.frame())).not.toContain('job aaaaaaaa');
    await app.confirm('resume.yes');
    await app.waitFrame(() => app.store.getState().bulk?.job.id === 'bbbbbbbb-second');
    await app.waitFrame(() => app.store.getState().bulk?.phase === 'done');
    expect(
      app.store
        .getState()
        .bulk?.job.lines.filter((l) => l.state === 'done')
        .map((l) => l.id),
    ).toEqual([e!.id, f!.id]);
    // Nothing left: closing its results offers nothing.
    await app.press('bulk.close');
    await app.waitFrame(() => app.store.getState().bulk === null);
    expect(app.store.getState().recovery).toBeNull();
    expect(intents.open()).toEqual([]);
  });

  it('is offered again once the resumed job was stopped (cancelled part way)', async () => {
    const { env, intents, deps, lines, onExtend } = await slowExtends();
    const at = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    intents.begin(
      extendJob(
        'aaaaaaaa-first',
        lines.slice(0, 5).map((l) => jobLine(l)),
        { createdAt: at(10) },
      ),
    );
    intents.begin(
      extendJob(
        'bbbbbbbb-second',
        lines.slice(5, 7).map((l) => jobLine(l)),
        { createdAt: at(5) },
      ),
    );
    const app = await renderApp({}, deps(), env);
    await app.waitFrame((fr) => fr.includes('Enter resumes the 5 lines never sent of job aaaaaaaa'));
    // The first extend leaves (one at a time): the user cancels, the rest is not sent.
    onExtend((n) => {
      if (n === 1) app.store.getState().cancelChange('aaaaaaaa-first');
    });
    await app.confirm('resume.yes');
    await app.waitFrame(() => app.store.getState().bulk?.phase === 'done');
    expect(app.store.getState().bulk?.job.lines.some((l) => l.state === 'cancelled')).toBe(true);
    await app.press('bulk.close');
    await app.waitFrame(
      (fr) =>
        offer(fr).includes('job bbbbbbbb') &&
        offer(fr).includes('0 done · 0 failed · 0 unknown · 2 never sent'),
    );
    expect(offer(app.frame())).not.toContain('job aaaaaaaa');
  });
});

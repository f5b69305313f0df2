/**
 * The resume offer shows where its jobs stand now: an unknown line settled outside it (by hand, as
 * `linedesk pending` or the bulk results do; or by a background check) is said settled, and the
 * check-again key goes once it has nothing left to do.
 */
import { describe, expect, it } from 'vitest';
import { renderApp } from '../helpers/app';
import { offer, resumeSandbox } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';

describe('the resume offer follows its jobs', () => {
  it('an unknown line settled by hand is said settled, and r goes', async () => {
    const { env, client, intents } = await resumeSandbox();
    const [a, b] = (await env.client.listLines({ limit: 2 })).lines;
    // One line sent just now whose outcome is unknown (the check at start sees no change yet: it stays
    // unknown in its hold window), one never sent.
    intents.begin(
      extendJob('job-open', [jobLine(a!, { state: 'unknown', sentAt: Date.now() }), jobLine(b!)]),
    );
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame(
      (f) => offer(f).includes('1 unknown') && f.includes('r checks the unknown ones again'),
    );
    expect(app.store.getState().settleByHand('job-open', a!.id, 'not applied').ok).toBe(true);
    await app.waitFrame((f) => offer(f).includes('0 unknown'));
    expect(offer(app.frame())).toContain(`extend ${a!.username} (line ${a!.id}): not applied`);
    expect(app.frame()).not.toContain('r checks');
    expect(app.frame()).not.toMatch(/\br check/);
  });

  it('an unknown line another linedesk settled is taken as the log keeps it: r checks no stale copy', async () => {
    const { env, client, intents } = await resumeSandbox();
    const [a, b] = (await env.client.listLines({ limit: 2 })).lines;
    const sent = jobLine(a!, { state: 'unknown', sentAt: Date.now() });
    // One line applied, one unknown: settled, nothing of the job needs attention (it is ended).
    intents.begin(extendJob('job-open', [sent, jobLine(b!, { state: 'done', detail: 'applied' })]));
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame(
      (f) => offer(f).includes('1 unknown') && f.includes('r checks the unknown ones again'),
    );
    // Another linedesk (`linedesk pending`) settles it by hand, which ends the job: this one hears nothing.
    intents.line('job-open', {
      ...sent,
      state: 'failed',
      detail: 'not applied: settled by the user (no proof from the service)',
      provenNotApplied: true,
      settledAfterUnknown: 'by hand',
    });
    intents.end('job-open');
    await app.press('resume.recheck');
    await app.waitFrame((f) => offer(f).includes('0 unknown'));
    expect(offer(app.frame())).toContain(`extend ${a!.username} (line ${a!.id}): not applied`);
  });
});

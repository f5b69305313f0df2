/**
 * Esc on the resume offer acts on the jobs that were on screen when it came, each as the intent log
 * has it when Esc acts: a job whose unknown line a check settled since the offer was drawn (its event
 * not heard yet) has nothing unknown left, so it is ended, not kept for the next start; a job the log
 * gained after the offer was drawn (never shown) is left as it is.
 */
import { expect, it } from 'vitest';
import { renderApp } from '../helpers/app';
import { offer, resumeSandbox } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';

it('Esc sets aside the shown jobs as the log has them: one settled since the offer was drawn is ended; one never shown is left', async () => {
  const { env, client, intents } = await resumeSandbox();
  const [a, b, c] = (await env.client.listLines({ limit: 3 })).lines;
  const sent = jobLine(a!, { state: 'unknown', sentAt: Date.now() });
  intents.begin(extendJob('job-shown', [sent, jobLine(b!)]));
  const app = await renderApp({}, { client, intents }, env);
  await app.waitFrame((f) =>
    offer(f).includes('Esc keeps the job with unknown outcomes: 1 line never sent is offered again'),
  );
  // A check settles the unknown line in the log in the tick Esc arrives: the offer has not heard of it.
  intents.line('job-shown', {
    ...sent,
    state: 'failed',
    detail: 'not applied: checked, no change seen',
    provenNotApplied: true,
    settledAfterUnknown: 'checked',
  });
  // And a job the log gains meanwhile (another linedesk's), never on screen.
  intents.begin(extendJob('job-unseen', [jobLine(c!, { state: 'unknown', sentAt: Date.now() })]));
  await app.press('resume.no');
  await app.waitFrame(() => app.store.getState().recovery === null);
  const open = intents.open().map((j) => j.id);
  // Nothing of it is unknown in the log: ended (its line never sent set aside), not offered again.
  expect(open).not.toContain('job-shown');
  expect(open).toContain('job-unseen');
});

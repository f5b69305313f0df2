/**
 * A check again (resume.recheck) looks up the offer's lines the lookup at start did not reach even
 * when no job is left open to check: its unknown lines settled since, so the service has no recovery
 * to announce, yet the offer still says "not looked up" and offers the key for them.
 */
import { describe, expect, it } from 'vitest';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { renderApp } from '../helpers/app';
import { offer } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';
import { farLines } from '../helpers/unreached';

describe('a check again after every unknown line settled', () => {
  it('still looks up the lines not looked up (the whole list), and marks them again', async () => {
    // 21 pages (more than the lookup at start reads) on a server whose search matches no id: the
    // line at the list's end is not reached at start.
    const { env, client, first, last } = await farLines();
    const intents = memoryIntentLog();
    // One line whose outcome is unknown, and one left marked to review, at the list's end.
    intents.begin(
      extendJob('job-settled', [
        jobLine(first!, { state: 'unknown' }),
        jobLine(last!, {
          state: 'skipped',
          notSentAsRead: 'changed',
          detail: 'not sent: changed since it was marked',
        }),
      ]),
    );
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame(
      (f) =>
        offer(f).includes(`extend ${last!.username}: not looked up (the lookup reads 20 pages at most)`) &&
        offer(f).includes('1 unknown'),
    );
    // The unknown line is settled since (by hand, as `linedesk pending` does): no job is left open.
    expect(app.store.getState().settleByHand('job-settled', first!.id, 'not applied').ok).toBe(true);
    expect(intents.open()).toEqual([]);
    // The offer follows: no unknown one is left to check, only the line to look up.
    await app.waitFrame(
      (f) => offer(f).includes('0 unknown') && f.includes('r looks up again the line (not looked up)'),
    );
    await app.press('resume.recheck');
    await app.waitFrame((f) => offer(f).includes('1 skipped (changed since marked: marked again)'));
    expect(app.store.getState().marked.has(last!.id)).toBe(true);
    expect(app.frame()).not.toContain('not looked up');
  }, 30_000);
});

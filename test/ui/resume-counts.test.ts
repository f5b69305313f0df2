/**
 * The next start's offer counts every line of an interrupted job once, so its counts add up to the
 * job's lines: a job resumed once may hold lines its re-read skipped (changed since marked), and
 * lines a user cancelled.
 */
import { describe, expect, it } from 'vitest';
import { command } from '../../src/commands/keymap';
import type { BulkLine } from '../../src/domain/bulk';
import { offerRows } from '../../src/ui/overlays/ResumeDialog';
import { renderApp } from '../helpers/app';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';

describe('the resume offer', () => {
  it('counts done, failed, unknown, never sent, skipped and cancelled lines, adding up to the job', () => {
    const states: Partial<BulkLine>[] = [
      { state: 'done' },
      { state: 'failed' },
      { state: 'unknown' },
      { state: 'pending' },
      { state: 'pending' },
      { state: 'skipped', detail: 'not sent: changed since it was marked', notSentAsRead: 'changed' },
      { state: 'cancelled' },
    ];
    const job = extendJob(
      'job-x',
      states.map((p, i) => jobLine(lineItem({ id: String(i + 1), username: `u${i + 1}` }), p)),
    );
    const rows = offerRows({ job, unsent: 2 }, false, new Map([['6', 'marked']]));
    const counts = rows.find((r) => r[2] === 'job-x:counts')![0];
    expect(counts).toContain(
      '1 done · 1 failed · 1 unknown · 2 never sent · 1 skipped (changed since marked: marked again) · 1 cancelled',
    );
    // The line changed since marked is named (marks are not saved: it is found again by its name).
    expect(rows.some((r) => r[0].includes('extend u6: not sent: changed since it was marked'))).toBe(true);
    const sum = [...counts.matchAll(/(\d+) (?:done|failed|unknown|never sent|skipped|cancelled)/g)].reduce(
      (s, m) => s + Number(m[1]),
      0,
    );
    expect(sum).toBe(job.lines.length);
  });

  it('a single change never sent is named on every frame: looked up, marked again, or why not', () => {
    const job = extendJob('job-one', [jobLine(lineItem({ id: '1', username: 'u1' }))]);
    const row = (marks: ReadonlyMap<string, 'marked' | 'not found'>) =>
      offerRows({ job, unsent: 1 }, false, marks).map((r) => r[0]);
    expect(row(new Map())).toEqual(['extend u1: never sent, being looked up, to be marked again']);
    expect(row(new Map([['1', 'marked']]))).toEqual(['extend u1: never sent, marked again']);
    expect(row(new Map([['1', 'not found']]))).toEqual([
      'extend u1: never sent, not found now, not marked again',
    ]);
  });

  it('says how many never-sent lines are not marked again, and why: not found (proven) or not looked up', () => {
    const job = extendJob(
      'job-z',
      [1, 2, 3].map((i) => jobLine(lineItem({ id: String(i), username: `u${i}` }))),
    );
    const rows = offerRows(
      { job, unsent: 3 },
      false,
      new Map([
        ['1', 'marked'],
        ['2', 'not found'],
        ['3', 'not looked up'],
      ]),
    );
    expect(rows.find((r) => r[2] === 'job-z:unsent')?.[0].trim()).toBe(
      'The 3 lines never sent: 1 marked again, 1 not found now, 1 not looked up',
    );
    // A failed lookup is said so, one wording for each state, on the rows and in the counts.
    const failed = offerRows(
      { job, unsent: 3 },
      false,
      new Map([
        ['1', 'lookup failed'],
        ['2', 'lookup failed'],
        ['3', 'not readable'],
      ]),
    );
    expect(failed.find((r) => r[2] === 'job-z:unsent')?.[0].trim()).toBe(
      'The 3 lines never sent: 1 not readable, 2 lookup failed',
    );
    // Not looked up yet: said so; all marked again: nothing to say.
    expect(
      offerRows({ job, unsent: 3 }, false, new Map())
        .find((r) => r[2] === 'job-z:unsent')?.[0]
        .trim(),
    ).toBe('The 3 lines never sent: being looked up, to be marked again');
    const all = new Map(['1', '2', '3'].map((id) => [id, 'marked' as const]));
    expect(offerRows({ job, unsent: 3 }, false, all).some((r) => r[2] === 'job-z:unsent')).toBe(false);
  });

  it('says what Esc leaves: the lines never sent stay marked', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    const job = extendJob('job-y', [
      jobLine(lineItem({ id: '1', username: 'u1' }), { state: 'done' }),
      jobLine(lineItem({ id: '2', username: 'u2' }), { state: 'pending' }),
      jobLine(lineItem({ id: '3', username: 'u3' }), { state: 'pending' }),
    ]);
    app.store.setState({ recovery: { checking: false, jobs: [{ job, unsent: 2 }] } });
    app.store
      .getState()
      .markLines([lineItem({ id: '2', username: 'u2' }), lineItem({ id: '3', username: 'u3' })]);
    app.store.getState().pushView({ id: 'resume' });
    await app.waitFrame((f) => f.includes('resumes the 2 lines never sent'));
    expect(app.frame()).toContain('Esc closes (2 lines stay marked)');
  });

  it('offers r exactly when it works: a line still sending counts as an outcome to check; none, no r', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    const recheck = command('resume.recheck');
    const offer = (state: BulkLine['state']) => {
      const job = extendJob('job-s', [
        jobLine(lineItem({ id: '1', username: 'u1' }), { state: 'done' }),
        jobLine(lineItem({ id: '2', username: 'u2' }), { state }),
      ]);
      app.store.setState({ recovery: { checking: false, jobs: [{ job, unsent: 0 }] } });
    };
    offer('sending');
    app.store.getState().pushView({ id: 'resume' });
    await app.waitFrame((f) => f.includes('r checks the unknown ones again'));
    expect(recheck.disabled?.(app.store.getState())).toBeNull();
    offer('failed');
    await app.waitFrame((f) => f.includes('Esc closes') && !f.includes('r checks'));
    expect(recheck.disabled?.(app.store.getState())).not.toBeNull();
  });
});

/**
 * The resume offer says where marking its lines again stands in one wording for each state (marked
 * again, not found now, not looked up, not readable, lookup failed): in a job's counts, on its rows
 * and in r's hint, which says what is true for a mix of reasons.
 */
import { describe, expect, it, vi } from 'vitest';
import type { MarkAgain } from '../../src/store/changes/changes-slice';
import { offerRows } from '../../src/ui/overlays/ResumeDialog';
import { lineItem } from '../helpers/fixtures';
import { offer } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';
import { drawOffer, offerStore } from '../helpers/offer-draw';

const l = (i: number) => lineItem({ id: String(i), username: `u${i}` });

describe('the resume offer’s words for marking again', () => {
  it('r says each reason of a mix: 3 not looked up, 1 not readable', async () => {
    const job = extendJob(
      'job-mix',
      [1, 2, 3, 4].map((i) => jobLine(l(i))),
    );
    const marks = new Map<string, MarkAgain>([
      ['1', 'not looked up'],
      ['2', 'not looked up'],
      ['3', 'not looked up'],
      ['4', 'not readable'],
    ]);
    const { store } = await offerStore([{ job, unsent: 4 }], marks);
    const { ui, frame } = drawOffer(store, 160, 20);
    await vi.waitFor(() =>
      expect(frame()).toContain('r looks up again the 4 lines (3 not looked up, 1 not readable)'),
    );
    expect(offer(frame())).toContain('The 4 lines never sent: 3 not looked up, 1 not readable');
    ui.unmount();
  });

  it('a failed lookup is "lookup failed" in r’s hint too, never "not looked up"', async () => {
    const job = extendJob(
      'job-failed',
      [1, 2].map((i) => jobLine(l(i))),
    );
    const marks = new Map<string, MarkAgain>([
      ['1', 'lookup failed'],
      ['2', 'lookup failed'],
    ]);
    const { store } = await offerStore([{ job, unsent: 2 }], marks);
    const { ui, frame } = drawOffer(store, 160, 20);
    await vi.waitFor(() => expect(frame()).toContain('r looks up again the 2 lines (lookup failed)'));
    expect(offer(frame())).toContain('The 2 lines never sent: lookup failed');
    expect(frame()).not.toContain('not looked up');
    ui.unmount();
  });

  it('the lines changed since marked are counted in the same words as those never sent', () => {
    const review = {
      state: 'skipped',
      notSentAsRead: 'changed',
      detail: 'not sent: changed since marked',
    } as const;
    const job = extendJob(
      'job-rev',
      [1, 2, 3].map((i) => jobLine(l(i), review)),
    );
    const rows = offerRows(
      { job, unsent: 0 },
      false,
      new Map<string, MarkAgain>([
        ['1', 'marked'],
        ['2', 'not found'],
        ['3', 'lookup failed'],
      ]),
    );
    expect(rows.find((r) => r[2] === 'job-rev:again')?.[0].trim()).toBe(
      'The 3 lines changed since marked: 1 marked again, 1 not found now, 1 lookup failed (named below)',
    );
    expect(rows.map((r) => r[0])).toContain(
      'extend u3: lookup failed, not marked again; not sent: changed since marked',
    );
  });
});

/**
 * The resume offer at small sizes: its notes (what Enter and Esc leave for the next start) never cost
 * the offer its Enter. They are dropped before the dialog is said too small, and the note on Enter is
 * not shown while Enter does not work.
 */
import { describe, expect, it, vi } from 'vitest';
import { command } from '../../src/commands/keymap';
import { CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import type { MarkAgain } from '../../src/store/changes/changes-slice';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';
import { drawOffer, offerStore } from '../helpers/offer-draw';

/** Two jobs with lines never sent (two notes: what Enter and Esc leave), five rows of the offer. */
function twoJobsOffer() {
  const l = (i: number) => lineItem({ id: String(i), username: `u${i}` });
  const first = extendJob('aaaaaaaa-first', [jobLine(l(1), { state: 'done' }), jobLine(l(2)), jobLine(l(3))]);
  const second = extendJob('bbbbbbbb-second', [
    jobLine(l(4), { state: 'unknown', detail: 'no reply' }),
    jobLine(l(5)),
    jobLine(l(6)),
  ]);
  const marks = new Map<string, MarkAgain>(['2', '3', '5', '6'].map((id) => [id, 'marked']));
  return offerStore(
    [
      { job: first, unsent: 2 },
      { job: second, unsent: 2 },
    ],
    marks,
  );
}

describe('the resume offer at small sizes', () => {
  it('drops its notes before it is too small: Enter still works where the offer fits', async () => {
    const { store, clock } = await twoJobsOffer();
    // Room for two rows of the offer (one, then "… and 4 more") and one note, not two.
    const { ui, frame, resize } = drawOffer(store, 100, 7);
    await vi.waitFor(() => expect(frame()).toContain('… and 4 more'));
    expect(frame()).not.toContain('Too small');
    // The first note (what Enter leaves) is kept; the second is dropped.
    expect(frame()).toContain('Enter resumes one job: 2 lines never sent in 1 other job');
    expect(frame()).not.toContain('Esc keeps');
    clock.offset += CONFIRM_ARM_MS;
    await vi.waitFor(() => expect(frame()).toContain('Enter resumes the 2 lines never sent of job aaaaaaaa'));
    await vi.waitFor(() => expect(store.getState().guard?.hidden).toBeNull());
    expect(command('resume.yes').disabled?.(store.getState())).toBeNull();
    // Room for the two rows only: no note, Enter still works.
    resize(6);
    await vi.waitFor(() => expect(frame()).not.toContain('Enter resumes one job'));
    expect(frame()).toContain('… and 4 more');
    expect(frame()).not.toContain('Too small');
    expect(command('resume.yes').disabled?.(store.getState())).toBeNull();
    ui.unmount();
  });

  it('too small: no note says what Enter does, since Enter does not work', async () => {
    const { store } = await twoJobsOffer();
    const { ui, frame } = drawOffer(store, 100, 5);
    await vi.waitFor(() => expect(frame()).toContain('Too small'));
    await vi.waitFor(() => expect(command('resume.yes').disabled?.(store.getState())).not.toBeNull());
    expect(frame()).not.toContain('Enter resumes');
    ui.unmount();
  });
});

/**
 * The offer's lookup of the lines to mark again may still run when the user acts. After Esc the marks
 * are expected ("N lines stay marked"); after a resume has started, the job is running: a late lookup
 * marks none of its lines and writes nothing of an offer that is gone.
 */
import { describe, expect, it, vi } from 'vitest';
import { interruptedJob } from '../helpers/interrupted';

/**
 * The next start after an interrupted job, its offer made while the offer's lookup of the changed line
 * is still running: the lookup's list reads wait until `release`.
 */
async function offerWithLookupHeld() {
  const { proxy, start, changed, unsent } = await interruptedJob();
  const second = await start();
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  proxy.set({ onList: () => held });
  const recovered = second.getState().recoverIntents();
  await vi.waitFor(() => {
    const s = second.getState();
    expect(s.recovery && !s.recovery.checking && s.markedAgain.get(changed.id) === 'looking').toBe(true);
  });
  return { second, changed, unsent, release: () => release(), recovered };
}

describe('a lookup still running when the offer is left', () => {
  it('after a resume started, marks none of the job’s lines', async () => {
    const { second, changed, release, recovered } = await offerWithLookupHeld();
    const resumed = second.getState().resumeJob();
    expect(second.getState().recovery).toBeNull();
    release();
    await recovered;
    await resumed;
    expect(second.getState().bulk?.phase).toBe('done');
    // The changed line (not sent again by the resume) was not marked by the late lookup.
    expect(second.getState().marked.has(changed.id)).toBe(false);
    expect(second.getState().markedAgain.get(changed.id)).not.toBe('marked');
  });

  it('after Esc, marks them (the offer said they stay marked)', async () => {
    const { second, changed, unsent, release, recovered } = await offerWithLookupHeld();
    second.getState().dismissRecovery();
    release();
    await recovered;
    expect([...second.getState().marked.keys()].sort()).toEqual([...unsent, changed.id].sort());
  });
});

/**
 * A bulk job interrupted after some of its lines were not sent because they changed since they were
 * marked: in the session that ran it they stayed marked ("review and run again"); marks are not
 * saved, so the next start's offer names them (they are in the intent log) and marks them again with
 * the lines never sent: Esc leaves them all marked, to review.
 */
import { describe, expect, it, vi } from 'vitest';
import { offerRows } from '../../src/ui/overlays/ResumeDialog';
import { interruptedJob } from '../helpers/interrupted';

describe('a restarted job’s lines changed since marked', () => {
  it('are named in the offer and marked again with the never-sent ones', async () => {
    const { start, changed, unsent } = await interruptedJob();
    // The next start: the offer names the changed line, and it is marked again with the unsent ones.
    const second = await start();
    await second.getState().recoverIntents();
    const r = second.getState().recovery!;
    const rows = offerRows(r.jobs[0]!, false, second.getState().markedAgain).map((row) => row[0]);
    expect(rows.join('\n')).toMatch(/1 skipped \(changed since marked: marked again\)/);
    expect(rows.some((t) => t.includes(changed.username) && t.includes('changed since it was marked'))).toBe(
      true,
    );
    await vi.waitFor(() =>
      expect([...second.getState().marked.keys()].sort()).toEqual([...unsent, changed.id].sort()),
    );
    // Set aside: the marks stay, to review.
    second.getState().dismissRecovery();
    expect(second.getState().marked.has(changed.id)).toBe(true);
  });

  it('the never-sent and the changed ones are looked up together: one list read, not one per kind', async () => {
    const { start, proxy, changed, unsent } = await interruptedJob();
    const second = await start();
    proxy.set({});
    await second.getState().recoverIntents();
    expect([...second.getState().marked.keys()].sort()).toEqual([...unsent, changed.id].sort());
    // 30 lines: one page is the whole list, so one read settles every line of both kinds.
    expect(proxy.received.get('GET /v1/lines/all')).toBe(1);
  });

  it('a resume sends the never-sent ones only; the finished job lists the changed one, still marked', async () => {
    const { start, changed, unsent } = await interruptedJob();
    const second = await start();
    await second.getState().recoverIntents();
    await second.getState().resumeJob();
    const done = second.getState().bulk!.job.lines;
    for (const id of unsent) expect(done.find((l) => l.id === id)!.state).toBe('done');
    expect(done.find((l) => l.id === changed.id)).toMatchObject({
      state: 'skipped',
      detail: expect.stringContaining('changed since it was marked'),
    });
    expect([...second.getState().marked.keys()]).toEqual([changed.id]);
  });
});

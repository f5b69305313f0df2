/**
 * A resume whose read again of its lines fails (the service answers 503 before anything is sent) is
 * refused as every other resume refused before sending is: its lines stay never sent in the intent
 * log, the notice says this attempt sent and charged nothing (what the job's earlier run sent stands)
 * and that it is offered again once its results close; it is offered again in this session once its
 * results are closed: resumed then, each never-sent line is charged once, the lines sent before
 * never again.
 */
import { describe, expect, it } from 'vitest';
import { interruptedJob } from '../helpers/interrupted';
import { books } from '../helpers/sandbox';

describe('a resume whose read again fails', () => {
  it('keeps the job offered, lines never sent; offered again once its results close, then resumed once', async () => {
    const { env, start, proxy, intents, unsent } = await interruptedJob();
    /** How many charges each line has in the sandbox's ledger. */
    const ledgerPerLine = () => {
      const per = new Map<string, number>();
      for (const r of books(env.sb).ledger) per.set(r.line_id, (per.get(r.line_id) ?? 0) + 1);
      return per;
    };
    const charged = ledgerPerLine();
    const second = await start();
    const said: string[] = [];
    second.subscribe((s) => {
      if (s.flash && !said.includes(s.flash.text)) said.push(s.flash.text);
    });
    await second.getState().recoverIntents();
    const [offered] = second.getState().recovery!.jobs;
    const kept0 = () => intents.open().find((j) => j.id === offered!.job.id)!;
    expect(offered!.unsent).toBe(unsent.length);

    proxy.set({ rules: [{ match: 'GET /v1/lines/all', fault: { kind: 'error5xx', status: 503 } }] });
    await second.getState().resumeJob();
    expect(ledgerPerLine()).toEqual(charged);
    // Exact about what it covers: this attempt sent and charged nothing; what the job's earlier run
    // sent (and charged) stands; offered again once its results close (not "stays offered": it waits).
    const sent = kept0().lines.filter((l) => l.sentAt !== undefined).length;
    expect(sent).toBeGreaterThan(0);
    const notice = said.find((t) => /^Not resumed: the lines could not be read again/.test(t));
    expect(notice).toMatch(/\. This attempt sent nothing and charged nothing; /);
    expect(notice).not.toMatch(/nothing was charged/);
    expect(notice).toContain(
      `; the job's earlier charges are untouched (${sent} lines sent by its earlier runs keep their outcomes)`,
    );
    expect(notice).toMatch(
      new RegExp(
        `job ${offered!.job.id.slice(0, 8)} is offered again once these results close \\(and at the next start\\)$`,
      ),
    );
    // Shown as the log holds them: never sent (no retry of them as a new job beside the offered one).
    const shown = second.getState().bulk!.job.lines;
    for (const id of unsent) expect(shown.find((l) => l.id === id)!.state).toBe('pending');
    const kept = intents.open().find((j) => j.id === offered!.job.id)!;
    expect(kept.lines.filter((l) => l.state === 'pending').map((l) => l.id)).toEqual(unsent);

    // The service answers again; the results closed, the job is offered again with the same count.
    proxy.set({});
    second.getState().bulkClose();
    await expect
      .poll(() => second.getState().recovery?.jobs.find((r) => r.job.id === offered!.job.id)?.unsent)
      .toBe(unsent.length);
    await second.getState().resumeJob();
    const after = ledgerPerLine();
    for (const [id, n] of after) expect(n - (charged.get(id) ?? 0)).toBe(unsent.includes(id) ? 1 : 0);
    for (const id of unsent) expect(after.get(id)! - (charged.get(id) ?? 0)).toBe(1);
    expect(intents.open().find((j) => j.id === offered!.job.id)).toBeUndefined();
  });
});

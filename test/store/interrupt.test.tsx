/**
 * Issue 23, items 4 and 6: a bulk job interrupted (Ctrl-C, q, a signal, a dead terminal: the store's
 * `shutdown`) is not a job the user cancelled. Its lines never sent stay `pending` in the intent log,
 * the next start offers them with the right counts and marks them again, a resume sends only them,
 * and the rate and ETA after a resume count only what this run did. During a job the header's balance
 * follows each reply's `newBalance`, and a balance the service could not confirm is marked stale.
 */
import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { progressOf } from '../../src/domain/bulk';
import { Marks } from '../../src/domain/marks';
import { selectBalance, selectBalanceStale } from '../../src/store/selectors';
import { selectDialog } from '../../src/store/view-stack';
import { Header } from '../../src/ui/layout/Header';
import { StoreProvider } from '../../src/ui/store-context';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { slowExtends } from '../helpers/slow-extends';
import { until } from '../helpers/wait';

type Store = Awaited<ReturnType<Awaited<ReturnType<typeof slowExtends>>['start']>>;
const markAndStart = (store: Store, lines: Awaited<ReturnType<typeof slowExtends>>['lines']) => {
  store.setState({
    marked: Marks.of(lines),
  });
  store.getState().openBulk('extend');
  return store.getState().bulkStart();
};

describe('an interrupted bulk job', () => {
  it('leaves its unsent lines pending; the next start offers them, marks them, and resumes only them', async () => {
    const { intents, start, lines, ledgerPerLine, onExtend } = await slowExtends();
    const first = await start();
    let stopping: Promise<void> | null = null;
    onExtend((n) => {
      if (n === 3) stopping = first.getState().shutdown(5_000); // Ctrl-C, q, SIGHUP: the same path
    });
    await markAndStart(first, lines);
    await stopping;

    // On disk: what was sent has its outcome, the rest is never sent — not "cancelled by the user".
    const [job] = intents.open();
    expect(job).toBeDefined();
    const states = job!.lines.map((l) => l.state);
    expect(states.filter((s) => s === 'cancelled')).toEqual([]);
    const sent = [...ledgerPerLine().keys()];
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(job!.lines.filter((l) => l.state === 'done').map((l) => l.id)).toEqual(sent);
    const unsent = job!.lines.filter((l) => l.state === 'pending').map((l) => l.id);
    expect(unsent.length).toBe(lines.length - sent.length);

    // The next start offers the job with its counts, and the never-sent lines are marked again.
    const second = await start();
    await second.getState().recoverIntents();
    const r = second.getState().recovery!;
    expect(r.checking).toBe(false);
    expect(r.jobs).toHaveLength(1);
    expect(r.jobs[0]!.unsent).toBe(unsent.length);
    expect(selectDialog(second.getState())).toBe('resume');
    expect([...second.getState().marked.keys()].sort()).toEqual([...unsent].sort());

    // The resume sends only those: every line charged exactly once; the marks go as lines are done.
    await second.getState().resumeJob();
    const b = second.getState().bulk!;
    expect(b.job.lines.map((l) => l.state)).toEqual(lines.map(() => 'done'));
    expect([...ledgerPerLine().values()]).toEqual(lines.map(() => 1));
    expect(ledgerPerLine().size).toBe(lines.length);
    expect(second.getState().marked.size).toBe(0);
    expect(intents.open()).toEqual([]);
  });

  it('Ctrl-C during a job asks once; a second quits, and the job is interrupted, not cancelled', async () => {
    const { intents, start, lines, onExtend } = await slowExtends();
    const store = await start();
    const answers: string[] = [];
    let stopping: Promise<void> | null = null;
    onExtend((n) => {
      if (n === 2) answers.push(store.getState().quitDuringJob());
      if (n === 3) {
        expect(store.getState().quitRequested).toBe(false); // the first only asked
        answers.push(store.getState().quitDuringJob());
        if (store.getState().quitRequested) stopping = store.getState().shutdown(5_000); // as run.tsx
      }
    });
    await markAndStart(store, lines);
    await stopping;
    expect(answers).toEqual(['armed', 'quit']);
    expect(intents.open()[0]!.lines.some((l) => l.state === 'pending')).toBe(true);
    // With no job running, Ctrl-C quits at once.
    const idle = await start();
    expect(idle.getState().quitDuringJob()).toBe('quit');
  });

  it('a job the user cancels still ends its queued lines "cancelled", never offered again', async () => {
    const { intents, start, lines, onExtend } = await slowExtends();
    const store = await start();
    onExtend((n) => {
      if (n === 2) store.getState().bulkCancel();
    });
    await markAndStart(store, lines);
    const job = store.getState().bulk!.job;
    expect(job.lines.some((l) => l.state === 'cancelled')).toBe(true);
    expect(job.lines.some((l) => l.state === 'pending')).toBe(false);
    expect(intents.open()).toEqual([]);
  });
});

describe('counts, rate and balance around a resume', () => {
  it('the offer says how many lines were never sent while it still checks the unknown ones', async () => {
    const { intents, start, lines } = await slowExtends();
    // An earlier process stopped with one request in flight and five lines never sent.
    const job = extendJob(
      'job-stopped',
      lines
        .slice(0, 6)
        .map((l, i) => jobLine(l, i === 0 ? { state: 'sending', sentAt: Date.now() - 60_000 } : {})),
      { connections: 2, balanceBefore: null },
    );
    intents.begin(job);
    const store = await start();
    const seen: number[] = [];
    const off = store.subscribe((s) => {
      if (s.recovery?.checking) seen.push(s.recovery.jobs[0]!.unsent);
    });
    await store.getState().recoverIntents();
    off();
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([5])); // never "0 never sent" while checking
    expect(store.getState().recovery!.jobs[0]!.unsent).toBe(5);
  });

  it('after a resume the rate and the ETA count only the lines this run sent', async () => {
    let t = Date.now();
    const { start, lines, onExtend } = await slowExtends({ now: () => t });
    const first = await start();
    let stopping: Promise<void> | null = null;
    onExtend((n) => {
      t += 1_000; // each extend takes a second of the clock the app reads
      if (n === 5) stopping = first.getState().shutdown(5_000);
    });
    await markAndStart(first, lines);
    await stopping;
    const second = await start();
    await second.getState().recoverIntents();
    const unsent = second.getState().recovery!.jobs[0]!.unsent;
    expect(unsent).toBe(lines.length - 5);
    await second.getState().resumeJob();
    const p = second.getState().bulk!.progress;
    expect(p.done).toBe(lines.length);
    // This run sent `unsent` lines in `unsent` seconds: 1 a second, not (all done) / (this run's time).
    expect(p.ratePerSec).toBeCloseTo(1, 5);
    // And the ETA is what is left at this run's rate.
    const midway = progressOf(
      {
        ...second.getState().bulk!.job,
        lines: second
          .getState()
          .bulk!.job.lines.map((l, i) => (i >= 6 ? { ...l, state: 'pending' as const } : l)),
      },
      1_000,
      5,
    );
    expect(midway.ratePerSec).toBe(1);
    expect(midway.etaSec).toBe(lines.length - 6);
  });

  it("the header's balance follows each reply's newBalance during the job", async () => {
    const { env, start, lines, onExtend } = await slowExtends();
    const store = await start();
    await store.getState().loadAccount();
    const opening = selectBalance(store.getState())!;
    const shown: Array<[number | undefined, number]> = [];
    onExtend((n) => {
      // Requests go one at a time: when the n-th has been applied (its reply not yet back), n − 1
      // replies were taken in; the header shows the balance after the (n − 1)-th charge.
      if (n > 1) shown.push([selectBalance(store.getState()), books(env.sb).ledger.at(-2)!.balance_after]);
    });
    await markAndStart(store, lines);
    expect(shown.length).toBe(lines.length - 1);
    for (const [header, server] of shown) expect(header).toBe(server);
    expect(shown[0]![0]).toBeLessThan(opening);
  });

  it('while the service cannot be reached the balance shown is marked stale', async () => {
    const { proxy, start, lines, onExtend } = await slowExtends();
    const store = await start();
    await store.getState().loadAccount();
    const header = render(
      <StoreProvider store={store}>
        <Header width={100} />
      </StoreProvider>,
    );
    expect(stripAnsi(header.lastFrame() ?? '')).not.toContain('stale');
    onExtend((n) => {
      if (n === 2) void proxy.down();
    });
    const running = markAndStart(store, lines);
    await until(() => Boolean(store.getState().bulk?.paused));
    expect(selectBalanceStale(store.getState())).toBe(true);
    await until(() => stripAnsi(header.lastFrame() ?? '').includes('(stale, as of '));
    await proxy.up();
    await running;
    expect(selectBalanceStale(store.getState())).toBe(false);
    await until(() => !stripAnsi(header.lastFrame() ?? '').includes('stale'));
    header.unmount();
  });
});

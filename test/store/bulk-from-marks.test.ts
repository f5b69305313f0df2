/**
 * A bulk job from the marks: its preview's lines are made from the marks when read (issue 27),
 * and must be the lines, counts and costs the job had when it held one object a line; the job that
 * runs sends each of them once.
 */
import { describe, expect, it, vi } from 'vitest';
import { affordability, pendingCounts, toBulkLine } from '../../src/domain/bulk';
import { RULES } from '../../src/domain/change-rules';
import { Marks } from '../../src/domain/marks';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { bulkBlocker } from '../../src/store/bulk-slice';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { books } from '../helpers/sandbox';
import { until } from '../helpers/wait';

const NOW = Date.now();

/**
 * A store on a sandbox of 40 lines and credits to spare, account, catalog and lines loaded, every line
 * marked. One time for every plan: an expired line's new expiry is counted from now.
 */
async function allMarked() {
  const env = await storeOnSandbox(
    { lines: 40, credits: 100_000 },
    { intents: memoryIntentLog(), journal: memoryJournal(), now: () => NOW },
  );
  const { store } = env;
  await store.getState().loadAccount();
  await store.getState().loadCatalog();
  await store.getState().loadLines();
  await store.getState().markAllMatching();
  return env;
}

describe('the bulk preview from the marks', () => {
  it('shows and counts what the lines themselves would; the run extends each once', async () => {
    const env = await allMarked();
    const { store } = env;
    const marks = store.getState().marked;
    expect(marks.size).toBe(40);
    // The same job from lines made at once (what openBulk did before), then from the marks.
    store.getState().openBulk('extend', Array.from(marks.lines(), toBulkLine), { months: 3 });
    const eager = store.getState().bulk!;
    const balance = loaded(store.getState().account)!.credits;
    const seen = {
      lines: [...eager.job.lines],
      progress: eager.progress,
      blocker: bulkBlocker(eager, balance),
      afford: affordability(eager.job.lines, 30),
    };
    store.getState().bulkClose();
    store.getState().openBulk('extend', undefined, { months: 3 });
    const lazy = store.getState().bulk!;
    expect([...lazy.job.lines]).toEqual(seen.lines);
    expect(lazy.job.lines.slice(5, 15)).toEqual(seen.lines.slice(5, 15));
    expect(lazy.progress).toEqual(seen.progress);
    expect(bulkBlocker(lazy, balance)).toBe(seen.blocker);
    const afford = affordability(lazy.job.lines, 30);
    expect(afford.affordable.size).toBe(seen.afford.affordable.size);
    expect(afford.spent).toBe(seen.afford.spent);
    for (const l of seen.lines) expect(afford.affordable.has(l.id)).toBe(seen.afford.affordable.has(l.id));
    await store.getState().bulkStart();
    await until(() => store.getState().bulk?.phase === 'done');
    const job = store.getState().bulk!.job;
    const extended = job.lines.filter((l) => l.state === 'done').map((l) => l.id);
    expect(extended.length).toBe(seen.lines.filter((l) => l.state === 'pending').length);
    const perLine = new Map<string, number>();
    for (const r of books(env.sb).ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
    expect([...perLine.keys()].sort()).toEqual([...extended].sort());
    expect([...perLine.values()].every((n) => n === 1)).toBe(true);
  });

  it('counts the marked lines the browser does not show as it did from the lines themselves', async () => {
    const env = await storeOnSandbox({ lines: 40 }, { intents: memoryIntentLog(), journal: memoryJournal() });
    const { store } = env;
    await store.getState().loadAccount();
    await store.getState().loadCatalog();
    await store.getState().loadLines();
    const all = loaded(store.getState().lines)!.lines;
    // Marked: the first page, most of it then out of view, one unmarked then marked again (it goes to the end).
    expect(all.length).toBeGreaterThan(6);
    store.getState().markLines(all);
    store.getState().unmark(all[3]!.id);
    store.getState().markLines([all[3]!]);
    expect([...store.getState().marked.keys()].at(-1)).toBe(all[3]!.id);
    // The page in view: a few lines, one of the marked ones among them (found by its username).
    store.getState().setQuery({ search: all[5]!.username });
    await until(() => {
      const page = loaded(store.getState().lines)?.lines;
      return !!page && page.length < all.length && page.some((l) => l.id === all[5]!.id);
    });
    const onPage = new Set(loaded(store.getState().lines)!.lines.map((l) => l.id));
    const expected = [...store.getState().marked.keys()].filter((id) => !onPage.has(id)).length;
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(all.length);
    store.getState().openBulk('extend', undefined, { months: 1 });
    expect(store.getState().bulk!.hidden).toBe(expected);
    expect(store.getState().bulk!.job.lines.map((l) => l.id)).toEqual([...store.getState().marked.keys()]);
    // A line in view that is not marked is no marked line in view.
    store.getState().bulkClose();
    store.getState().unmark(all[5]!.id);
    const marked = store.getState().marked;
    expect(marked.has(all[5]!.id)).toBe(false);
    store.getState().openBulk('extend', undefined, { months: 1 });
    expect(store.getState().bulk!.hidden).toBe([...marked.keys()].filter((id) => !onPage.has(id)).length);
  });

  it('makes each marked line once as it opens, though the footer asks whether it may start at each change', async () => {
    const env = await storeOnSandbox({ lines: 40 }, { intents: memoryIntentLog(), journal: memoryJournal() });
    const { store } = env;
    await store.getState().loadAccount();
    await store.getState().loadCatalog();
    await store.getState().loadLines();
    await store.getState().markAllMatching();
    const n = store.getState().marked.size;
    expect(n).toBe(40);
    const balance = loaded(store.getState().account)!.credits;
    // As the footer does: the start key is offered only when the job may start, asked at every change.
    const answers: Array<string | null> = [];
    const stop = store.subscribe((s) => {
      if (s.bulk) answers.push(bulkBlocker(s.bulk, balance));
    });
    const made = vi.spyOn(Marks.prototype, 'lineAt');
    try {
      for (const op of ['extend', 'delete'] as const) {
        made.mockClear();
        store.getState().openBulk(op, undefined, { months: 1 });
        // Counted once, when planned; never for the lines before planning (a job replaced at once).
        expect(made.mock.calls.length).toBe(n);
        expect(answers.length).toBeGreaterThan(0);
        store.getState().bulkClose();
      }
    } finally {
      made.mockRestore();
      stop();
    }
  });

  it('still refuses what the lines themselves would refuse: the total over the balance, a delete not typed', async () => {
    const env = await allMarked();
    const { store } = env;
    const marks = store.getState().marked;
    for (const op of ['extend', 'delete'] as const) {
      store.getState().openBulk(op, Array.from(marks.lines(), toBulkLine), { months: 3 });
      const eager = store.getState().bulk!;
      store.getState().bulkClose();
      store.getState().openBulk(op, undefined, { months: 3 });
      const lazy = store.getState().bulk!;
      const total = affordability(eager.job.lines, 0).total;
      if (op === 'extend') expect(total).toBeGreaterThan(0);
      for (const balance of [undefined, 0, total - 1, total, total + 1]) {
        const want = bulkBlocker(eager, balance);
        expect(bulkBlocker(lazy, balance)).toBe(want);
        if (op === 'extend' && balance !== undefined && balance < total)
          expect(want).toBe(RULES.totalExceeds);
        if (op === 'extend' && (balance === undefined || balance >= total)) expect(want).toBeNull();
        if (op === 'delete') expect(want).toMatch(/^Type \d+ to confirm$/);
        // Only the affordable ones: the job may start whatever the balance, once it is known.
        const only = { ...lazy, onlyAffordable: true };
        expect(bulkBlocker(only, balance)).toBe(bulkBlocker({ ...eager, onlyAffordable: true }, balance));
      }
      if (op === 'delete') {
        const typed = { ...lazy, typed: String(lazy.job.lines.length) };
        expect(bulkBlocker(typed, 0)).toBe(bulkBlocker({ ...eager, typed: typed.typed }, 0));
        expect(bulkBlocker(typed, 0)).toBeNull();
      }
      store.getState().bulkClose();
    }
  });
});

describe('whether the preview may start, asked of one job again and again', () => {
  it('answers for the balance, the typed count, only-affordable and the quoting of each asking', async () => {
    const env = await allMarked();
    const { store } = env;
    store.getState().openBulk('extend', undefined, { months: 3 });
    const b = store.getState().bulk!;
    const total = affordability(b.job.lines, 0).total;
    expect(total).toBeGreaterThan(0);
    // The same job each time (the answer is kept for it): a balance spent elsewhere since still refuses.
    expect(bulkBlocker(b, total)).toBeNull();
    expect(bulkBlocker(b, total - 1)).toBe(RULES.totalExceeds);
    expect(bulkBlocker({ ...b, onlyAffordable: true }, total - 1)).toBeNull();
    expect(bulkBlocker(b, total - 1)).toBe(RULES.totalExceeds);
    expect(bulkBlocker(b, total)).toBeNull();
    expect(bulkBlocker({ ...b, quoting: true }, total)).toBe('Waiting for the costs');
    expect(bulkBlocker(b, total)).toBeNull();
    store.getState().bulkClose();
    store.getState().openBulk('delete', undefined, {});
    const d = store.getState().bulk!;
    const n = String(pendingCounts(d.job.lines).pending);
    expect(bulkBlocker({ ...d, typed: n }, 0)).toBeNull();
    expect(bulkBlocker({ ...d, typed: `${n}0` }, 0)).toBe(`Type ${n} to confirm`);
    expect(bulkBlocker({ ...d, typed: n }, 0)).toBeNull();
    store.getState().bulkClose();
  });
});

describe('retrying the failed and cancelled lines of a bulk job', () => {
  it('opens them with the months and connections the job had, planned with them', async () => {
    const env = await allMarked();
    const { store } = env;
    const lines = Array.from(store.getState().marked.lines(), toBulkLine);
    for (const [op, params] of [
      ['extend', { months: 6 }],
      ['upgrade', { connections: 4 }],
    ] as const) {
      store.getState().openBulk(op, lines, params);
      await until(() => store.getState().bulk?.quoting === false);
      const first = store.getState().bulk!;
      // As a job that ran and was cancelled before any line left.
      store.setState({
        bulk: {
          ...first,
          phase: 'done',
          job: {
            ...first.job,
            lines: first.job.lines.map((l) =>
              l.state === 'pending' ? { ...l, state: 'cancelled' as const } : l,
            ),
          },
        },
      });
      store.getState().bulkRetryFailed();
      await until(() => store.getState().bulk?.quoting === false);
      const retry = store.getState().bulk!;
      expect(retry.phase).toBe('preview');
      expect(retry.job.id).not.toBe(first.job.id);
      expect([retry.job.months, retry.job.connections]).toEqual([first.job.months, first.job.connections]);
      const pending = (ls: typeof first.job.lines) =>
        ls.filter((l) => l.state === 'pending').map((l) => [l.id, l.cost, l.detail]);
      expect(pending(retry.job.lines)).toEqual(pending(first.job.lines));
      expect(pending(retry.job.lines).length).toBeGreaterThan(0);
      store.getState().bulkClose();
    }
  });

  it('keeps nothing a run wrote on a line: a retried line is sent as if for the first time', async () => {
    const env = await allMarked();
    const { store } = env;
    const lines = Array.from(store.getState().marked.lines(), toBulkLine)
      .filter((l) => !l.before.isTrial)
      .slice(0, 3);
    store.getState().openBulk('extend', lines, { months: 1 });
    await until(() => store.getState().bulk?.quoting === false);
    const first = store.getState().bulk!;
    // As a job whose lines were refused once after an earlier run left its marks on them.
    const ran = {
      state: 'failed' as const,
      provenNotApplied: true,
      notSent: true,
      sentAt: 1,
      charge: 'unknown' as const,
      maybeOther: 'another linedesk',
      settledAfterUnknown: 'checked' as const,
      notSentAsRead: 'changed' as const,
      heldBack: true,
      deducedCredits: 3,
      newBalance: 7,
    };
    store.setState({
      bulk: {
        ...first,
        phase: 'done',
        job: { ...first.job, lines: first.job.lines.map((l) => ({ ...l, ...ran })) },
      },
    });
    store.getState().bulkRetryFailed();
    await until(() => store.getState().bulk?.quoting === false);
    const retry = store.getState().bulk!.job.lines;
    expect(retry.map((l) => l.state)).toEqual(['pending', 'pending', 'pending']);
    const written = Object.keys(ran).filter((k) => k !== 'state');
    for (const l of retry) for (const k of written) expect(l, k).not.toHaveProperty(k);
    store.getState().bulkClose();
  });
});

import {
  affordability,
  type BulkJob,
  type BulkLine,
  type BulkOp,
  type BulkProgress,
  lazyLines,
  madeLines,
  OPEN,
  pendingCounts,
  progressOf,
  retryable,
  toBulkLine,
  unrunLine,
} from '../domain/bulk';
import { RULES, type RuleCode } from '../domain/change-rules';
import { csvCell } from '../domain/csv';
import { typedText } from '../domain/line-form';
import { type Months, stepConnections, stepMonths } from '../domain/steps';
import { validateJob } from '../services/changes/validate';
import { describeError } from '../services/describe-error';
import type { AppState } from './app-store';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectBalanceToJudge } from './selectors';
import { loaded } from './types';
import { selectScreen } from './view-stack';

/** A job's id: node:crypto is loaded when a bulk job is planned, not at the app's start (≈ 2–5 ms of CPU and ≈ 2 MB resident: docs/PERFORMANCE.md). */
const newJobId = () => process.getBuiltinModule('node:crypto').randomUUID();

const toCsvRows = (rows: ReadonlyArray<Record<string, unknown>>) =>
  rows.length
    ? `${[Object.keys(rows[0]!).join(','), ...rows.map((r) => Object.values(r).map(csvCell).join(','))].join('\n')}\n`
    : '';

export interface BulkState {
  readonly phase: 'preview' | 'running' | 'done';
  readonly job: BulkJob;
  readonly quoting: boolean;
  readonly onlyAffordable: boolean;
  /** Delete: the number of lines, typed to confirm. */
  readonly typed: string;
  /** Marked lines not on the page in view (other pages, or hidden by the filter or search). */
  readonly hidden: number;
  readonly progress: BulkProgress;
  readonly cancelling: boolean;
  /** The results' lines being checked again (`r`): nothing is sent, so there is nothing to cancel. */
  readonly checking?: boolean;
  /** The service cannot be reached: the job waits and probes (what to say), or null. */
  readonly paused?: string | null;
}

export interface BulkSlice {
  readonly bulk: BulkState | null;
  /** `params`: where the job starts (1 month, 2 connections): a script's values. */
  openBulk: (
    op: BulkOp,
    lines?: readonly BulkLine[],
    params?: { months?: Months; connections?: number },
  ) => void;
  bulkAdjust: (delta: 1 | -1) => void;
  bulkToggleAffordable: () => void;
  bulkSetTyped: (text: string) => void;
  bulkStart: () => Promise<void>;
  bulkCancel: () => void;
  bulkRetryFailed: () => void;
  bulkClose: () => void;
  bulkExport: () => void;
  /** Checks the job's unknown lines with the server again (never re-sends). */
  bulkRecheck: () => Promise<void>;
  /** Resumes the unsent lines of an interrupted job found at start (its unknown ones were checked). */
  resumeJob: () => Promise<void>;
  /** A background check of the finished job: its lines follow. */
  bulkJobChecked: (job: BulkJob) => void;
}

/**
 * The balance the bulk preview judges a job against: the one read last, also while it is read again
 * (as the preview does when it opens: a new balance re-arms the confirm), but not once a read of it
 * failed, nor while it is read again after that: the balance every place shows as stale
 * (selectors.ts `selectBalanceToJudge`). Undefined: not known, and the preview says so (reading it,
 * or why not) rather than judge by an older balance.
 */
export const bulkBalance = (s: Pick<AppState, 'account' | 'bulk' | 'balanceAt'>): number | undefined =>
  selectBalanceToJudge(s);

/** Why the job cannot start now: the rule's code (the change service's), or the dialog's own. */
interface BulkRefusal {
  readonly code: RuleCode | 'quoting' | 'typeToConfirm';
  readonly message: string;
}

/**
 * Why the job cannot start now, or null: the costs still coming, then the job's rules (the change
 * service's `validateJob`), with the dialog's typed count after "nothing to do".
 */
export function bulkBlocker(b: BulkState, balance: number | undefined): string | null {
  return bulkRefusal(b, balance)?.message ?? null;
}

/** `bulkBlocker` with its code: the screens add the key that helps (commands/areas/bulk.ts). */
export function bulkRefusal(b: BulkState, balance: number | undefined): BulkRefusal | null {
  // Asked at every frame (the footer offers the start key only when it starts the job), and the
  // answer reads every line: kept for the job it was worked out for (jobs are replaced, never
  // changed in place), so a preview of 100,000 lines does not walk them at each state change.
  const kept = blockerKept.get(b.job);
  if (
    kept &&
    kept.balance === balance &&
    kept.onlyAffordable === b.onlyAffordable &&
    kept.typed === b.typed &&
    kept.quoting === b.quoting
  )
    return kept.value;
  const value = blockerOf(b, balance);
  blockerKept.set(b.job, {
    balance,
    onlyAffordable: b.onlyAffordable,
    typed: b.typed,
    quoting: b.quoting,
    value,
  });
  return value;
}

const blockerKept = new WeakMap<
  BulkState['job'],
  {
    readonly balance: number | undefined;
    readonly onlyAffordable: boolean;
    readonly typed: string;
    readonly quoting: boolean;
    readonly value: BulkRefusal | null;
  }
>();

function blockerOf(b: BulkState, balance: number | undefined): BulkRefusal | null {
  if (b.quoting) return { code: 'quoting', message: 'Waiting for the costs' };
  const refused = validateJob(b.job, { balance, onlyAffordable: b.onlyAffordable });
  if (refused?.code === 'nothingToDo') return refused;
  const runnable = pendingCounts(b.job.lines).pending;
  if (b.job.op === 'delete' && b.typed !== String(runnable))
    return { code: 'typeToConfirm', message: `Type ${runnable} to confirm` };
  // The key that helps (only the affordable ones) is named by the screens: commands/areas/bulk.ts.
  return refused;
}

export function createBulkSlice(set: SetState, get: GetState, deps: StoreDeps): BulkSlice {
  const changes = deps.changes!;
  const now = deps.now ?? Date.now;
  let quoteSeq = 0;
  const patch = (p: Partial<BulkState>) => {
    const b = get().bulk;
    if (b) set({ bulk: { ...b, ...p } });
  };
  const setLines = (lines: readonly BulkLine[]) => {
    const b = get().bulk;
    if (b) set({ bulk: { ...b, job: { ...b.job, lines }, progress: progressOf({ ...b.job, lines }, 0) } });
  };

  /** `job`'s lines planned by the change service (made when read if they are). */
  const planned = (job: BulkJob) => changes.plan(job.op, job.lines, job, loaded(get().packages) ?? []).lines;

  /** Has the change service quote the upgrades of the job in the dialog (four at a time). */
  const quote = async () => {
    const b = get().bulk;
    if (!b) return;
    const id = ++quoteSeq;
    if (b.job.op !== 'upgrade') return patch({ quoting: false });
    patch({ quoting: true });
    const quoted = await changes.quoteJob(b.job, () => id === quoteSeq);
    if (id !== quoteSeq) return;
    setLines(quoted.lines);
    patch({ quoting: false });
  };

  const run = async (ready: BulkJob) => {
    // The engine is given lines made once, never lines made when read.
    const job = { ...ready, lines: madeLines(ready.lines) };
    const started = now();
    // A resumed job finished some lines in an earlier run: the rate counts only this run's.
    const before = job.lines.filter((l) => l.state === 'done' || l.state === 'failed').length;
    const progress = (j: BulkJob) => progressOf(j, now() - started, before);
    let current = job;
    let dirty = false;
    patch({ phase: 'running', job, progress: progressOf(job, 0, before), cancelling: false });
    // Progress reaches the screen at most ten times a second.
    const timer = setInterval(() => {
      if (!dirty) return;
      dirty = false;
      patch({ job: current, progress: progress(current) });
    }, 100);
    try {
      current = await changes.runChange(job, {
        bulk: true,
        // The account's line count: whether a walk or searches read the lines again for less.
        linesTotal: loaded(get().account)?.lines_count,
        onProgress: (j) => {
          current = j;
          dirty = true;
        },
        onPause: (paused) => patch({ paused }),
      });
    } catch (err) {
      deps.logError?.('bulk', err);
      get().notify(`The bulk job stopped: ${describeError(err)}`, 'error');
    } finally {
      clearInterval(timer);
      patch({
        phase: 'done',
        job: current,
        progress: progress(current),
        cancelling: false,
        paused: null,
      });
    }
  };

  return {
    bulk: null,

    openBulk(op, given, params) {
      const s = get();
      // Only the browser can hide marked lines from the user; the marks and renewals views list them.
      const fromBrowser = selectScreen(s).id === 'lines';
      const onPage = loaded(s.lines)?.lines ?? [];
      // From the marks: made when read (the preview draws a screenful of 100,000).
      const marks = s.marked;
      const lines =
        given ??
        lazyLines(
          marks.size,
          (i) => toBulkLine(marks.lineAt(i)),
          (id) => marks.indexOf(id),
        );
      const shown = new Set(onPage.map((l) => l.id));
      const hidden = given
        ? lines.filter((l) => !shown.has(l.id)).length
        : marks.size - [...shown].filter((id) => marks.has(id)).length;
      const unplanned: BulkJob = {
        id: newJobId(),
        op,
        months: params?.months ?? 1,
        connections: params?.connections ?? 2,
        target: s.target.id,
        createdAt: new Date(now()).toISOString(),
        lines,
      };
      // Planned before the dialog shows it: the footer asks at once whether the job may start, and
      // that answer reads every line (100,000 from the marks). Asked of the lines before planning,
      // it was a walk of them for a job replaced the same moment; now the lines are counted once,
      // planned, and every check after it reads that count (issue #27).
      const job: BulkJob = { ...unplanned, lines: planned(unplanned) };
      set({
        bulk: {
          phase: 'preview',
          job,
          quoting: op === 'upgrade',
          onlyAffordable: false,
          typed: '',
          hidden: fromBrowser ? hidden : 0,
          progress: progressOf(job, 0),
          cancelling: false,
        },
      });
      get().pushView({ id: 'bulk' });
      get().scrollToStart('bulk');
      // What the preview judges the job against (affordable, the total) is the balance now: the one
      // the header read last may be older than a spend elsewhere since (another panel, a script).
      void get().loadAccount();
      void quote();
    },

    bulkAdjust(delta) {
      const b = get().bulk;
      if (b?.phase !== 'preview') return;
      const step =
        b.job.op === 'extend'
          ? { months: stepMonths(b.job.months, delta) }
          : b.job.op === 'upgrade'
            ? { connections: stepConnections(b.job.connections, delta) }
            : null;
      if (!step) return;
      // The new values and the lines planned for them (and their total) in one change of the state:
      // no frame, and no key, ever meets the new values with the old plan's lines and total. Lines
      // from the marks are counted by kind (domain/bulk.ts `planLines`): a key costs a pass over
      // their kinds, not 100,000 lines made and planned again.
      const job = { ...b.job, ...step };
      const lines = planned(job);
      set({
        bulk: {
          ...b,
          job: { ...job, lines },
          progress: progressOf({ ...job, lines }, 0),
          quoting: job.op === 'upgrade',
        },
      });
      void quote();
    },

    bulkToggleAffordable() {
      const b = get().bulk;
      if (b?.phase === 'preview') patch({ onlyAffordable: !b.onlyAffordable });
    },

    bulkSetTyped(text) {
      patch({ typed: typedText(text) });
    },

    async bulkStart() {
      const b = get().bulk;
      if (b?.phase !== 'preview') return;
      if (get().readOnly) return get().notify(RULES.readOnly, 'info');
      const balance = bulkBalance(get());
      const blocked = bulkBlocker(b, balance);
      if (blocked) return get().notify(blocked, 'info');
      let lines = madeLines(b.job.lines);
      if (b.onlyAffordable && balance !== undefined) {
        const { affordable } = affordability(lines, balance);
        lines = lines.map((l) =>
          l.state === 'pending' && !affordable.has(l.id)
            ? { ...l, state: 'skipped', detail: 'not affordable' }
            : l,
        );
      }
      await run({ ...b.job, lines });
    },

    bulkCancel() {
      const b = get().bulk;
      if (b?.phase !== 'running') return;
      // The job shown when the key arrived: a cancel reaches that job only.
      changes.cancel(b.job.id);
      patch({ cancelling: true });
      get().notify('Cancelling: no new requests; those in flight finish', 'info');
    },

    /**
     * Lines proven not applied (refused, or checked), settled as not applied by the user, and
     * cancelled ones (`retryable`), planned and quoted again before anything is sent. Unknown lines
     * are never retried: they are checked.
     */
    bulkRetryFailed() {
      const b = get().bulk;
      if (b?.phase !== 'done') return;
      const failed = b.job.lines.filter(retryable);
      if (!failed.length) return get().notify('No failed or cancelled lines to retry', 'info');
      const op = b.job.op as BulkOp;
      get().openBulk(op, failed.map(unrunLine), { months: b.job.months, connections: b.job.connections });
    },

    bulkClose() {
      const b = get().bulk;
      if (b?.phase === 'running')
        return get().notify('The job is running: close this after it ends, or cancel it', 'info');
      quoteSeq++;
      set({ bulk: null });
      get().closeView('bulk');
      // A resumed job's results closed: the jobs its offer left waiting are offered now.
      void get().offerWaiting();
    },

    bulkExport() {
      const b = get().bulk;
      if (!b || !deps.writeExport) return get().notify('Nowhere to export to in this session', 'error');
      const rows = b.job.lines.map((l) => ({
        id: l.id,
        username: l.username,
        state: l.state,
        detail: l.detail ?? null,
        cost: l.cost,
        deducedCredits: l.deducedCredits ?? null,
        newBalance: l.newBalance ?? null,
      }));
      const name = `bulk-${b.job.op}-${b.job.createdAt.replace(/[:.]/g, '-')}`;
      const csv = toCsvRows(rows);
      const a = deps.writeExport(`${name}.csv`, csv);
      const j = deps.writeExport(
        `${name}.json`,
        `${JSON.stringify({ job: { ...b.job, lines: undefined }, lines: rows }, null, 2)}\n`,
      );
      get().notify(`Results exported: ${a} and ${j}`, 'success');
    },

    async bulkRecheck() {
      const b = get().bulk;
      if (b?.phase !== 'done' || !b.job.lines.some((l) => OPEN.has(l.state))) return;
      patch({ phase: 'running', checking: true });
      try {
        const job = await changes.checkChange(b.job, { bulk: true });
        patch({ phase: 'done', checking: false, job, progress: progressOf(job, 0) });
      } catch (err) {
        // A check that throws (a take the disk refuses) leaves the results as they were, said.
        patch({ phase: 'done', checking: false });
        get().notify(`Not checked again: ${describeError(err)}`, 'error');
      }
    },

    bulkJobChecked(job) {
      const b = get().bulk;
      if (b?.phase === 'done' && b.job.id === job.id) patch({ job, progress: progressOf(job, 0) });
    },

    async resumeJob() {
      const found = get().recovery?.jobs.find((r) => r.unsent > 0);
      if (!found) return;
      const job = found.job;
      get().recoveryResumed(job.id);
      set({
        bulk: {
          phase: 'running',
          job,
          quoting: false,
          onlyAffordable: false,
          typed: '',
          hidden: 0,
          progress: progressOf(job, 0),
          cancelling: false,
        },
      });
      get().closeView('resume');
      get().pushView({ id: 'bulk' });
      get().scrollToStart('bulk');
      await run(job);
      // Refused before its lines left (nothing sent): offered again once the results close, as the
      // log has it then (offerAgain skips it if it ended meanwhile), not left until the next start.
      const after = get().bulk?.job;
      if (
        after?.id === job.id &&
        after.lines.some((l) => l.state === 'pending' || (l.state === 'failed' && l.notSent))
      )
        get().offerLater(found);
    },
  };
}

/**
 * The credit runway and the balance drift, as the header and the account screen show them: the
 * lines expiring within the window (services/runway.ts), planned against the balance the header shows
 * (selectRunway, recomputed as the balance moves), and the last judgement of the balance
 * (services/balance-watch.ts), said once.
 */
import type { Line, LineListItem, Package } from '../api/contract';
import { driftWatchOf } from '../app/drift-watch';
import type { BulkJob, BulkLine } from '../domain/bulk';
import { RUNWAY_DAYS, type Runway, type RunwayDue } from '../domain/runway';
import type { BalanceWatch, DriftReport } from '../services/balance-watch';
import { describeError } from '../services/describe-error';
import {
  fetchRunwayLines,
  type RunwayLines,
  runwayAfterChange,
  runwayDueOf,
  runwayOf,
} from '../services/runway';
import type { AppState } from './app-store';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectBalanceToJudge } from './selectors';
import { keptForLast, type Load, loaded } from './types';

export interface RunwaySlice {
  readonly runway: Load<RunwayLines>;
  /** The window in days (`:runway 14`; this session only). */
  readonly runwayDays: number;
  /** The last judgement of the balance; a drift stays said until the next one. */
  readonly drift: DriftReport | null;
  loadRunway: (days?: number) => Promise<void>;
  /**
   * Event, changes → here: a line of a job is done, with the server's row when known. The runway's
   * lines follow it locally; when only a walk can tell (the row unknown and the line maybe in the
   * window), the job's end walks once (issue 27: never a walk per line, none for a line outside it).
   */
  runwayLineDone: (job: BulkJob, line: BulkLine, server: Line | LineListItem | undefined) => void;
  /**
   * Event, changes → here: a job ended; one walk if a line of it left the runway unknown, a line's
   * outcome is unknown (once a job: not at each background check's end), or it changed a line and
   * the runway is older than RUNWAY_FRESH_MS.
   */
  runwayJobFinished: (job: BulkJob) => void;
  /** Event, session → here: a read of the account was judged (null: not watched). */
  balanceJudged: (report: DriftReport | null) => void;
}

/** The drift watch over the store's files; a change of this app open or unwritten leaves a read unjudged. */
export function storeWatch(deps: StoreDeps, get: GetState): BalanceWatch | null {
  return driftWatchOf(deps, () => {
    const s = get();
    if (s.journalWaiting > 0) return 'a journal entry of this machine is not written yet';
    if (s.unsettled.size > 0) return 'a change of this machine has an unknown outcome';
    return null;
  });
}

/**
 * A runway older than this is walked again at the end of a job that changed a line: the local
 * updates keep it true to its own moment (`at`), and this bounds how old that moment gets in a long
 * session of changes (a walk every change, before: issue 27).
 */
export const RUNWAY_FRESH_MS = 15 * 60_000;

export function createRunwaySlice(set: SetState, get: GetState, deps: StoreDeps): RunwaySlice {
  const now = deps.now ?? Date.now;
  let seq = 0;
  /** Jobs with a done line the runway could not follow locally: walked once when they finish. */
  const unknown = new Set<string>();
  /**
   * Jobs that ended with a line's outcome unknown, walked for it once: their background checks end
   * them again and again while the line stays so, and a line such a check settles brings its row
   * (`runwayLineDone`), so those ends walk no more.
   */
  const walkedUnsure = new Set<string>();
  return {
    runway: { status: 'idle' },
    runwayDays: RUNWAY_DAYS,
    drift: null,

    async loadRunway(days) {
      const id = ++seq;
      if (days !== undefined) set({ runwayDays: days });
      const prev = loaded(get().runway);
      const keep = prev && prev.days === get().runwayDays ? { data: prev } : {};
      set({ runway: { status: 'loading', ...keep } });
      try {
        const data = await fetchRunwayLines(deps.client, get().runwayDays, now(), () => id !== seq);
        if (id === seq) set({ runway: { status: 'ready', data } });
      } catch (err) {
        if (id !== seq) return;
        deps.logError?.('loadRunway', err);
        set({ runway: { status: 'error', error: describeError(err), ...keep } });
      }
    },

    runwayLineDone(job, l, server) {
      const r = get().runway;
      if (r.status === 'idle') return;
      // A walk under way may have read the line before or after the change: walked again at the end.
      if (r.status !== 'ready') {
        unknown.add(job.id);
        return;
      }
      const next = runwayAfterChange(r.data, {
        id: server?.id ?? l.id,
        op: job.op,
        beforeExpMs: l.before.expMs,
        after: job.op === 'delete' ? null : server,
      });
      if (next === null) unknown.add(job.id);
      else if (next !== r.data) set({ runway: { status: 'ready', data: next } });
    },

    runwayJobFinished(job) {
      const r = get().runway;
      const old =
        r.status === 'ready' &&
        job.lines.some((l) => l.state === 'done') &&
        now() - r.data.at > RUNWAY_FRESH_MS;
      // A line whose outcome is unknown may have changed (or may yet): its row may be wrong.
      const open = job.lines.some((l) => l.state === 'unknown');
      const unsure = open && !walkedUnsure.has(job.id);
      if (open) walkedUnsure.add(job.id);
      else walkedUnsure.delete(job.id);
      if ((unknown.delete(job.id) || old || unsure) && r.status !== 'idle') void get().loadRunway();
    },

    balanceJudged(report) {
      // A read left unjudged keeps a drift already said; any judged read replaces it.
      if (report?.verdict.kind === 'unsure' && !report.problem && get().drift?.verdict.kind === 'drift')
        return;
      set({ drift: report });
    },
  };
}

type RunwayInput = Pick<AppState, 'runway' | 'packages' | 'account' | 'bulk' | 'balanceAt'>;
const NO_PACKAGES: readonly Package[] = [];

// Without prices every line is unpriced and the runway would read "covered": none rather than that.
const runwayFor = keptForLast(
  (lines: RunwayLines | undefined, packages: readonly Package[], balance: number | undefined) =>
    lines && balance !== undefined && packages.length ? runwayOf(lines, packages, balance) : null,
);

/**
 * The runway against the balance while it is the service's word (selectors.ts `selectBalanceToJudge`,
 * what a change is judged against); null until the lines, the prices and the balance are read, and
 * while the balance shown is stale: worked out from it, it would read as today's runway (every place
 * that shows it says instead that it is not known now).
 */
export const selectRunway = (s: RunwayInput): Runway | null =>
  runwayFor(loaded(s.runway), loaded(s.packages) ?? NO_PACKAGES, selectBalanceToJudge(s));

const dueFor = keptForLast((lines: RunwayLines | undefined, packages: readonly Package[]) =>
  lines && packages.length ? runwayDueOf(lines, packages) : null,
);

/**
 * The runway's lines with no balance judging them, soonest first, priced: what the account screen
 * lists while the balance is stale (which of them lapse is then not known: `selectRunway` is null).
 * Null until the lines and the prices are read.
 */
export const selectRunwayDue = (s: Pick<AppState, 'runway' | 'packages'>): RunwayDue | null =>
  dueFor(loaded(s.runway), loaded(s.packages) ?? NO_PACKAGES);

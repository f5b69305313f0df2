/**
 * Credit runway: how many days the balance lasts if every line that expires within the window is
 * renewed for one month as it comes due. Priced as the renewals view prices (extend has no simulate
 * endpoint, so each cost is the app's estimate from the package prices, labelled so), and each
 * renewal needs what the change rules need before it is sent: its cost, never below the package's
 * min_balance (pricing.ts `balanceNeeded`).
 */
import type { LineListItem, Package } from '../api/contract';
import { type ChangeOp, lineRefusal } from './change-rules';
import { extendEstimate } from './estimate';
import { balanceNeeded, DAY_MS } from './pricing';

/** The window `linedesk runway` and the header look at when none is given. */
export const RUNWAY_DAYS = 30;

/** A line of the window as the runway judges it against a balance (`DueRow`'s line, expiry, cost). */
export interface RunwayRow extends Omit<DueRow, 'needs'> {
  /** The balance still pays for it once every earlier row is renewed. */
  readonly covered: boolean;
}

/** The window's lines judged against a balance (`RunwayDue`'s window, trials, suspended, unpriced). */
export interface Runway extends Omit<RunwayDue, 'rows'> {
  readonly balance: number;
  /** Lines to renew, soonest expiry first. */
  readonly rows: readonly RunwayRow[];
  /** What renewing every priced row costs (an estimate). */
  readonly needed: number;
  /** The balance renews every row of the window (a row with no price is not known to be: false). */
  readonly covers: boolean;
  /**
   * Whole days the balance covers: the window when it covers it, else the days until the first line
   * it cannot renew (or cannot price) expires.
   */
  readonly coveredDays: number;
  /** The rows the balance does not renew, soonest first: the lines that would lapse first. */
  readonly lapsing: readonly RunwayRow[];
  /** Always true: extend has no server quote. */
  readonly estimate: true;
}

/** A line of the window the runway would renew, before any balance judges it. */
export interface DueRow {
  readonly line: LineListItem;
  /** When it lapses without a renewal. */
  readonly expiresMs: number;
  /** One month's renewal, estimated from the package prices; null: no regular 1-month package. */
  readonly cost: number | null;
  /** What its renewal needs the balance to be before it is sent (its cost, never below the
   *  package's min_balance); null with no price. */
  readonly needs: number | null;
}

/** The window's lines as the runway walks them, with no balance: what a stale one leaves to show. */
export interface RunwayDue {
  /** The window, in days from `at`. */
  readonly days: number;
  readonly at: number;
  /** Lines to renew, soonest expiry first. */
  readonly rows: readonly DueRow[];
  /** Trials expiring in the window: they cannot be extended (change-rules), so they are not counted. */
  readonly trials: readonly LineListItem[];
  /** Suspended lines expiring in the window: not serving anyone, so not counted (an unsuspend is free). */
  readonly suspended: readonly LineListItem[];
  /** Rows with no regular 1-month package to price them: not counted, said. */
  readonly unpriced: number;
}

/**
 * The lines expiring within `days` of `nowMs` that a renewal would keep serving (any order in;
 * lines outside the window, expired or without an expiry are left out), soonest first, each priced;
 * trials (they cannot be extended) and suspended lines (serving no one) set apart. No balance: what
 * the balance covers is `planRunway`'s.
 */
export function runwayDue(
  lines: readonly LineListItem[],
  packages: readonly Package[],
  days: number,
  nowMs: number,
): RunwayDue {
  const until = nowMs + days * DAY_MS;
  const inWindow = lines
    .map((line) => ({ line, expiresMs: line.exp_date?.ms ?? null }))
    .filter((x): x is { line: LineListItem; expiresMs: number } => {
      const at = x.expiresMs;
      return at !== null && at > nowMs && at <= until;
    })
    .sort((a, b) => a.expiresMs - b.expiresMs);
  const seen = new Set<string>();
  const trials: LineListItem[] = [];
  const suspended: LineListItem[] = [];
  const rows: DueRow[] = [];
  let unpriced = 0;
  for (const { line, expiresMs } of inWindow) {
    if (seen.has(line.id)) continue;
    seen.add(line.id);
    if (lineRefusal('extend', line)) {
      trials.push(line);
      continue;
    }
    if (!line.enabled) {
      suspended.push(line);
      continue;
    }
    const est = extendEstimate(packages, 1, line.connections);
    if (!est) unpriced++;
    rows.push({
      line,
      expiresMs,
      cost: est?.cost ?? null,
      needs: est ? balanceNeeded(est.cost, est.pkg) : null,
    });
  }
  return { days, at: nowMs, rows, trials, suspended, unpriced };
}

/**
 * The runway over the lines expiring within `days` of `nowMs` (`runwayDue`'s). Walks them in expiry
 * order, each renewal taking its cost from what is left; the first one the rest cannot pay for (its
 * cost or the package's min_balance, whichever is larger) is the day the balance runs out, and every
 * later line lapses too (renewing them out of order would only move which customer goes dark).
 */
export function planRunway(
  lines: readonly LineListItem[],
  packages: readonly Package[],
  balance: number,
  days: number,
  nowMs: number,
): Runway {
  const due = runwayDue(lines, packages, days, nowMs);
  const rows: RunwayRow[] = [];
  let left = balance;
  let short = false;
  let needed = 0;
  for (const { line, expiresMs, cost, needs } of due.rows) {
    if (cost === null || needs === null) {
      rows.push({ line, expiresMs, cost: null, covered: false });
      continue;
    }
    needed += cost;
    if (!short && left >= needs) left -= cost;
    else short = true;
    rows.push({ line, expiresMs, cost, covered: !short });
  }
  const lapsing = rows.filter((r) => r.cost !== null && !r.covered);
  // A line no package prices is not known to be renewed: the runway is not said to cover it (a cron
  // job's exit 0 would be an all-clear nobody checked), and it ends there if nothing lapses before.
  const first = rows.find((r) => r.cost === null || !r.covered);
  return {
    ...due,
    balance,
    rows,
    needed,
    covers: first === undefined,
    coveredDays: first ? Math.max(0, Math.floor((first.expiresMs - nowMs) / DAY_MS)) : days,
    lapsing,
    estimate: true,
  };
}

/** "covers 12 days of renewals", or that it covers the whole window. */
export function runwayText(r: Pick<Runway, 'covers' | 'coveredDays' | 'days'>): string {
  return r.covers
    ? `covers the next ${r.days} ${r.days === 1 ? 'day' : 'days'} of renewals`
    : r.coveredDays === 0
      ? 'covers less than a day of renewals'
      : `covers ${r.coveredDays} ${r.coveredDays === 1 ? 'day' : 'days'} of renewals`;
}

/** A line a change settled, as the runway needs it. */
export interface RunwayChange {
  /** The line's id (a created line's: the server's, once known). */
  readonly id: string;
  readonly op: ChangeOp;
  /** Its expiry before the change (null: none, or none readable). */
  readonly beforeExpMs: number | null;
  /** The server's row after the change; null: the line is gone (delete); undefined: not known. */
  readonly after: LineListItem | null | undefined;
}

/**
 * What the runway keeps of a walk: the lines expiring within `days` of `at`, soonest first (trials
 * and suspended ones too: the plan sets them apart).
 */
export interface RunwayRead {
  readonly lines: readonly LineListItem[];
  readonly at: number;
  readonly days: number;
  /** The walk stopped at its cap: the lines after them were never read (the runway counts only these). */
  readonly capped: boolean;
}

/**
 * The runway's lines after a change, from what the change told (issue 27: a walk over every expiring
 * line's pages for each single extend spent the rate budget the bulk jobs share): the same lines a
 * walk at `read.at` over the lines as they are now would give, or null when only a walk knows (the
 * server's row is not known and the line may be in the window, or the walk was capped at `cap`).
 * A line outside the window before and after costs nothing: `read.lines` itself is returned.
 * Equal expiries keep no promised order (the server's order among them is its own).
 */
export function runwayLinesAfter(
  read: RunwayRead,
  change: RunwayChange,
  cap: number,
): readonly LineListItem[] | null {
  const until = read.at + read.days * DAY_MS;
  const within = (ms: number | null | undefined) => ms != null && ms > read.at && ms <= until;
  const had = read.lines.some((l) => l.id === change.id);
  if (change.after === undefined) {
    if (had || !staysOut(change, within, until)) return null;
    return read.lines;
  }
  const next = change.after && within(change.after.exp_date?.ms) ? change.after : null;
  if (!had && !next) return read.lines;
  // Capped, the line that follows the last one read is not known: a walk finds it.
  if (read.capped) return null;
  const kept = read.lines.filter((l) => l.id !== change.id);
  if (!next) return kept;
  if (kept.length + 1 >= cap) return null;
  const at = next.exp_date!.ms as number;
  const i = kept.findIndex((l) => (l.exp_date?.ms ?? Number.POSITIVE_INFINITY) > at);
  return i < 0 ? [...kept, next] : [...kept.slice(0, i), next, ...kept.slice(i)];
}

/**
 * A change whose row is not known, of a line not in the runway, that cannot have come into the
 * window: an upgrade or unsuspend keeps the expiry (outside before, outside after); an extend only
 * moves it later (beyond the window before, beyond it after). Anything else may have come in.
 */
function staysOut(
  change: RunwayChange,
  within: (ms: number | null | undefined) => boolean,
  until: number,
): boolean {
  if (change.op === 'upgrade' || change.op === 'unsuspend') return !within(change.beforeExpMs);
  if (change.op === 'extend') return change.beforeExpMs !== null && change.beforeExpMs > until;
  return false;
}

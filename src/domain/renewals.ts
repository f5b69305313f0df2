import type { LineListItem, Package } from '../api/contract';
import { extendEstimate } from './estimate';
import { counted } from './format';

/**
 * The renewals view's groups, in the order shown. A line appears once, in its first group, except a
 * suspended line with paid time left (or no expiry): it needs an unsuspend, which is free, not a
 * renewal, so it is listed under `unsuspend`, outside the renewals' count, total and reminders.
 */
type RenewalGroup = 'expiring' | 'expired' | 'suspended' | 'unsuspend' | 'trial';

/** Groups that are renewed (extended, priced, reminded): not trials, not lines that only need unsuspending. */
export const isRenewal = (g: RenewalGroup): boolean => g !== 'trial' && g !== 'unsuspend';

export interface RenewalWindow {
  /** Lines expiring within this many days from now. */
  readonly withinDays: number;
  /** Lines expired within this many days before now (0: none read, the runway's walk). */
  readonly expiredDays: number;
}

export const DEFAULT_WINDOW: RenewalWindow = { withinDays: 7, expiredDays: 30 };
/** The largest low-balance threshold: far above any balance, well inside a safe integer. */
const LOW_BALANCE_MAX = 1_000_000_000;
export const LOW_BALANCE_RULE = `digits only, 0 to ${LOW_BALANCE_MAX} credits, or off`;

/** `:lowbalance TEXT`: a threshold in credits, 'off' (null), or undefined when the text breaks the rule
 *  (1e3, -5, 0x10 and a 20-digit number all read as numbers to `Number`; none is what was asked). */
export function parseLowBalance(text: string): number | null | undefined {
  const t = text.trim();
  if (t === 'off') return null;
  if (!/^\d{1,10}$/.test(t)) return undefined;
  const n = Number(t);
  return n <= LOW_BALANCE_MAX ? n : undefined;
}

/** The steps `[` and `]` move the window through. */
const WINDOW_STEPS = [1, 3, 7, 14, 28, 60, 90] as const;

export function stepWindow(days: number, delta: 1 | -1): number {
  const i = WINDOW_STEPS.findIndex((d) => d >= days);
  const at = i === -1 ? WINDOW_STEPS.length - 1 : WINDOW_STEPS[i] === days ? i : delta > 0 ? i - 1 : i;
  return WINDOW_STEPS[Math.max(0, Math.min(WINDOW_STEPS.length - 1, at + delta))]!;
}

export interface RenewalRow {
  readonly line: LineListItem;
  readonly group: RenewalGroup;
  /** Extend's cost for `months` from the package prices: an estimate; null for trials or no price. */
  readonly cost: number | null;
}

export interface RenewalsPlan {
  readonly rows: readonly RenewalRow[];
  readonly groups: readonly { group: RenewalGroup; label: string; count: number; subtotal: number }[];
  /**
   * The estimated total of every renewable row (trials are not renewable: they cannot be extended;
   * a suspended line with paid time needs an unsuspend, not a renewal).
   */
  readonly total: number;
  readonly renewable: number;
  /** Rows whose cost is unknown (no regular package of that length). */
  readonly unpriced: number;
  /** How many renewals, in the order shown, the balance covers. */
  readonly covered: number;
}

const groupLabel = (g: RenewalGroup, w: RenewalWindow): string =>
  ({
    expiring: `Expiring within ${counted(w.withinDays, 'day')}`,
    expired: `Expired in the last ${counted(w.expiredDays, 'day')}`,
    suspended: 'Suspended, and their time has run out',
    unsuspend: 'Suspended with paid time left (unsuspend, free: not a renewal)',
    trial: 'Trials (cannot be extended: a new line replaces them)',
  })[g];

/**
 * Groups what the server listed into the view: expiring soonest first, recently expired most recent
 * first, then suspended, with trials set apart (never silently skipped); each priced for `months`.
 */
export function planRenewals(
  found: {
    expiring: readonly LineListItem[];
    expired: readonly LineListItem[];
    suspended: readonly LineListItem[];
  },
  packages: readonly Package[],
  months: number,
  balance: number | null,
  window: RenewalWindow,
  nowMs: number,
): RenewalsPlan {
  const seen = new Set<string>();
  const rows: RenewalRow[] = [];
  const unsuspend: RenewalRow[] = [];
  const trials: RenewalRow[] = [];
  const paidTime = (l: LineListItem) =>
    l.exp_date === null || (l.exp_date.ms !== null && l.exp_date.ms > nowMs);
  const add = (group: RenewalGroup, lines: readonly LineListItem[]) => {
    for (const line of lines) {
      if (seen.has(line.id)) continue;
      seen.add(line.id);
      if (line.is_trial) trials.push({ line, group: 'trial', cost: null });
      else if (!line.enabled && paidTime(line)) unsuspend.push({ line, group: 'unsuspend', cost: 0 });
      else rows.push({ line, group, cost: extendEstimate(packages, months, line.connections)?.cost ?? null });
    }
  };
  add('expiring', found.expiring);
  add('expired', found.expired);
  add('suspended', found.suspended);
  const all = [...rows, ...unsuspend, ...trials];
  const order: RenewalGroup[] = ['expiring', 'expired', 'suspended', 'unsuspend', 'trial'];
  const groups = order.map((group) => {
    const of = all.filter((r) => r.group === group);
    return {
      group,
      label: groupLabel(group, window),
      count: of.length,
      subtotal: of.reduce((n, r) => n + (r.cost ?? 0), 0),
    };
  });
  let covered = 0;
  let spent = 0;
  for (const r of rows) {
    if (r.cost === null || balance === null) break;
    if (spent + r.cost > balance) break;
    spent += r.cost;
    covered++;
  }
  return {
    rows: all,
    groups,
    total: rows.reduce((n, r) => n + (r.cost ?? 0), 0),
    renewable: rows.length,
    unpriced: rows.filter((r) => r.cost === null).length,
    covered,
  };
}

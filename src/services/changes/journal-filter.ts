/**
 * Which journal entries a reader asked for: one account (unless all), and a period of local days.
 * The journal holds every account's changes made from this machine; each entry names its account.
 */
import { type JournalEntry, localDay } from './journal';

/** A period as typed: `today`, `yesterday`, a day (2026-11-01) or a time (2026-11-01T08:00:00Z). */
export type PeriodEdge = 'since' | 'until';

const dayStart = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();

/**
 * The edge of a period in epoch ms, on this machine's local days: `--since` a day is its first
 * moment; `--until` a day is the first moment of the next (the day is included). A full time is
 * taken as written. Null when the text is none of these.
 */
export function parsePeriodEdge(text: string, edge: PeriodEdge, nowMs: number): number | null {
  const t = text.trim().toLowerCase();
  let day: [number, number, number] | null = null;
  if (t === 'today' || t === 'yesterday') {
    const n = new Date(nowMs);
    day = [n.getFullYear(), n.getMonth() + 1, n.getDate() - (t === 'yesterday' ? 1 : 0)];
  } else {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
    if (m) {
      day = [Number(m[1]), Number(m[2]), Number(m[3])];
      // 2026-02-31 is not a day.
      if (localDay(dayStart(...day)) !== t) return null;
    }
  }
  if (day) return dayStart(day[0], day[1], day[2] + (edge === 'until' ? 1 : 0));
  if (!/^\d{4}-\d{2}-\d{2}T/i.test(t)) return null;
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? null : ms;
}

export interface JournalFilter {
  /** The account shown (Target.id), or null for every account. */
  readonly account: string | null;
  readonly sinceMs?: number | null;
  /** Exclusive. */
  readonly untilMs?: number | null;
}

/** An entry of an earlier version names the service's URL alone (or nothing): not an account. */
export const namesAccount = (e: JournalEntry) => e.target.startsWith('sandbox:') || e.target.includes('#');

/**
 * The entries asked for, and how many in the period were left out: of other accounts, and of an
 * earlier version that names no account (they may be this one's; said, so none is hidden silently).
 */
export function filterJournal(
  entries: readonly JournalEntry[],
  f: JournalFilter,
): { readonly entries: JournalEntry[]; readonly otherAccounts: number; readonly noAccount: number } {
  let otherAccounts = 0;
  let noAccount = 0;
  const out: JournalEntry[] = [];
  for (const e of entries) {
    const t = Date.parse(e.time);
    if (f.sinceMs != null && t < f.sinceMs) continue;
    if (f.untilMs != null && t >= f.untilMs) continue;
    if (f.account !== null && e.target !== f.account) {
      if (namesAccount(e)) otherAccounts++;
      else noAccount++;
      continue;
    }
    out.push(e);
  }
  return { entries: out, otherAccounts, noAccount };
}

/** "2 of other accounts, 1 naming no account (an earlier version's)", or '' when none was left out. */
export function leftOutText(otherAccounts: number, noAccount: number): string {
  return [
    otherAccounts ? `${otherAccounts} of other ${otherAccounts === 1 ? 'account' : 'accounts'}` : '',
    noAccount ? `${noAccount} naming no account (an earlier version's)` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * The SERVICE column: the profile named with the entry, else what its account id says (an earlier
 * version's entry holds the base URL alone: its host, the account not known).
 */
export function serviceOf(e: JournalEntry): string {
  // The profile's name is what a reader knows the account by ("shopB · panel.example" → shopB).
  if (e.service) return e.service.split(' · ')[0]!;
  if (e.target.startsWith('sandbox:')) return 'SANDBOX';
  try {
    const url = new URL(e.target.split('#')[0]!);
    return e.target.includes('#') ? url.host : `${url.host} (account?)`;
  } catch {
    return '?';
  }
}

/** The views' periods, in the order the key cycles them. */
export const JOURNAL_PERIODS = ['all', 'today', 'yesterday', 'last 7 days'] as const;
export type JournalPeriod = (typeof JOURNAL_PERIODS)[number];

export function periodRange(
  p: JournalPeriod,
  nowMs: number,
): { sinceMs: number | null; untilMs: number | null } {
  const today = parsePeriodEdge('today', 'since', nowMs)!;
  if (p === 'today') return { sinceMs: today, untilMs: null };
  if (p === 'yesterday') return { sinceMs: parsePeriodEdge('yesterday', 'since', nowMs)!, untilMs: today };
  if (p === 'last 7 days') {
    const n = new Date(nowMs);
    return { sinceMs: dayStart(n.getFullYear(), n.getMonth() + 1, n.getDate() - 6), untilMs: null };
  }
  return { sinceMs: null, untilMs: null };
}

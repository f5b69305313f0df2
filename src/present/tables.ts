import type { Package } from '../api/contract';
import { cellWidth, creditsText, fitWidth } from '../domain/format';
import type { RenewalRow } from '../domain/renewals';
import { type JournalEntry, type JournalOutcome, localDay } from '../services/changes/journal';
import { serviceOf } from '../services/changes/journal-filter';
import { type Column, type LaidOut, layoutColumns, lineColumnsOf } from './lines-columns';

/** Columns are data for every table: header, width rule, a pure cell. Tested without rendering. */
export const PACKAGE_COLUMNS: readonly Column<Package>[] = [
  { id: 'name', header: 'NAME', width: { min: 12, flex: 1 }, cell: (p) => p.package_name },
  { id: 'type', header: 'TYPE', width: 8, cell: (p) => (p.is_trial ? 'trial' : 'premium') },
  {
    id: 'duration',
    header: 'DURATION',
    width: 10,
    cell: (p) => (p.is_trial ? `${p.duration} hours` : `${p.duration} month${p.duration === 1 ? '' : 's'}`),
  },
  { id: 'cost', header: 'COST', width: 7, align: 'right', cell: (p) => creditsText(p.credits_cost) },
  {
    id: 'extra',
    header: 'EXTRA CONN',
    width: 10,
    align: 'right',
    cell: (p) => creditsText(p.extra_connection_credits_cost),
  },
  {
    id: 'min',
    header: 'MIN BALANCE',
    width: 11,
    align: 'right',
    // The least needed: dropped first on a narrow terminal, so package names stay whole.
    minTerminal: 90,
    cell: (p) => creditsText(p.min_balance),
  },
];

const amount = (n: number | null, mark = '') => (n === null ? '' : `${creditsText(n)}${mark}`);

const dayOf = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : localDay(ms);
};

/**
 * What was bought, in short: "3mo 2026-12-01→2027-03-01", "conn 1→2" (the year said once when it
 * does not change: "2026-11-01→11-28"); blank for an entry of an earlier version.
 */
export function journalWhat(e: JournalEntry): string {
  const parts: string[] = [];
  if (e.months !== undefined) parts.push(`${e.months}mo`);
  const cb = e.connectionsBefore;
  const ca = e.connectionsAfter;
  if (cb !== undefined && ca !== undefined && cb !== ca) parts.push(`conn ${cb}→${ca}`);
  else if (cb === undefined && ca !== undefined) parts.push(`conn ${ca}`);
  const before = e.expiryBefore ? dayOf(e.expiryBefore) : undefined;
  const after = e.expiryAfter ? dayOf(e.expiryAfter) : undefined;
  if (before || after) {
    const to = after && before && after.slice(0, 5) === before.slice(0, 5) ? after.slice(5) : after;
    parts.push(`${before ?? '—'}${to ? `→${to}` : ''}`);
  }
  return parts.join(' ');
}

/** Every outcome an entry has (the compiler checks the list is whole). */
const OUTCOMES = Object.keys({
  applied: 0,
  rejected: 0,
  unknown: 0,
  'not applied': 0,
  'not sent': 0,
} satisfies Record<JournalOutcome, 0>) as JournalOutcome[];

// The user's verdict (`linedesk pending --settle`) is their word, not the service's proof: said, in
// full or in short ("by hand: yes"), never cut away.
const outcomeText = (e: Pick<JournalEntry, 'outcome' | 'settledByHand'>) =>
  e.settledByHand ? `${e.outcome} (by hand)` : e.outcome;
const outcomeShort = (e: Pick<JournalEntry, 'outcome' | 'settledByHand'>) =>
  !e.settledByHand
    ? e.outcome
    : `by hand: ${e.outcome === 'applied' ? 'yes' : e.outcome === 'not applied' ? 'no' : e.outcome}`;
/** The outcomes a user settles by hand (`linedesk pending --settle --as applied|not-applied`). */
const SETTLED: readonly JournalOutcome[] = ['applied', 'not applied'];
const widestOf = (text: (e: Pick<JournalEntry, 'outcome' | 'settledByHand'>) => string) =>
  Math.max(
    ...[
      ...OUTCOMES.map((outcome) => text({ outcome })),
      ...SETTLED.map((outcome) => text({ outcome, settledByHand: true })),
    ].map(cellWidth),
  );

/**
 * The journal's columns as every account shows them (`journalColumns` for one account). The outcome
 * is the column read first: whole at every width the screen is drawn in (60 columns up); the others
 * give way, the least needed first (`minTerminal`, the table's width at gaps of one): the quote, the
 * balance, what was bought, the service, the charge, the operation. The time and the line's username
 * stay. What gave way stays in the CSV and the JSON.
 */
export const JOURNAL_COLUMNS: readonly Column<JournalEntry>[] = [
  {
    id: 'time',
    header: 'TIME (LOCAL)',
    width: 16,
    cell: (e) => {
      const ms = Date.parse(e.time);
      return Number.isNaN(ms) ? e.time : `${localDay(ms)} ${new Date(ms).toTimeString().slice(0, 5)}`;
    },
  },
  // The service is a column only when every account is shown.
  { id: 'service', header: 'SERVICE', width: { min: 7, flex: 3 }, minTerminal: 82, cell: serviceOf },
  { id: 'operation', header: 'OPERATION', width: 9, minTerminal: 66, cell: (e) => e.operation },
  {
    id: 'line',
    header: 'LINE',
    width: { min: 17, flex: 2, max: 32 },
    cell: (e) => e.username ?? e.lineId ?? '',
  },
  { id: 'what', header: 'WHAT', width: { min: 12, flex: 1 }, minTerminal: 100, cell: journalWhat },
  {
    id: 'quoted',
    header: 'QUOTED',
    width: 7,
    align: 'right',
    // The charge is what happened; the quote gives way first.
    minTerminal: 112,
    cell: (e) => amount(e.quotedCost, e.estimate ? '~' : ''),
  },
  {
    id: 'charged',
    header: 'CHARGED',
    width: 7,
    align: 'right',
    minTerminal: 74,
    cell: (e) => amount(e.deducedCredits),
  },
  {
    id: 'balance',
    header: 'BALANCE',
    width: 8,
    align: 'right',
    minTerminal: 104,
    cell: (e) => amount(e.newBalance),
  },
  {
    id: 'outcome',
    header: 'OUTCOME',
    // As wide as its longest: "not applied (by hand)"; in short below the least width of the rest.
    width: widestOf(outcomeText),
    cell: outcomeText,
    short: { width: widestOf(outcomeShort), cell: outcomeShort },
  },
];

/** Without the service column (one account), what was bought shows sooner, in its room. */
const ONE_ACCOUNT: Readonly<Record<string, number>> = { what: 87 };

/** The journal's columns: with the SERVICE column when every account is shown. */
export function journalColumns(allAccounts: boolean): readonly Column<JournalEntry>[] {
  if (allAccounts) return JOURNAL_COLUMNS;
  return JOURNAL_COLUMNS.filter((c) => c.id !== 'service').map((c) =>
    ONE_ACCOUNT[c.id] ? { ...c, minTerminal: ONE_ACCOUNT[c.id] } : c,
  );
}

/** The renewals view: the browser's columns that matter for a renewal, and its estimated cost. */
export const RENEWAL_COLUMNS: readonly Column<RenewalRow>[] = [
  ...lineColumnsOf<RenewalRow>(['username', 'label', 'status', 'connections', 'expiry']),
  {
    id: 'cost',
    header: 'COST~',
    width: 7,
    align: 'right',
    cell: (r) =>
      r.group === 'trial'
        ? 'n/a'
        : r.group === 'unsuspend'
          ? 'free'
          : r.cost === null
            ? '?'
            : creditsText(r.cost),
  },
];

/** A bouquet as the picker lists it: whether the form has it chosen travels with the row. */
export interface PickerRow {
  readonly id: number;
  readonly label: string;
  readonly chosen: boolean;
}

export const PICKER_COLUMNS: readonly Column<PickerRow>[] = [
  {
    id: 'chosen',
    header: '',
    width: 3,
    cell: (b) => (b.chosen ? '[x]' : '[ ]'),
    say: (b) => (b.chosen ? 'chosen' : 'not chosen'),
  },
  { id: 'name', header: 'BOUQUET', width: { min: 12, flex: 1 }, cell: (b) => b.label },
  { id: 'id', header: 'ID', width: 6, align: 'right', minTerminal: 60, cell: (b) => String(b.id) },
];

/** One row of a laid-out table as text (headers when `row` is null). */
export function rowText<T>(laid: readonly LaidOut<T>[], row: T | null, now = 0): string {
  return laid
    .map(({ column, width }) =>
      fitWidth(row === null ? column.header : column.cell(row, now), width, column.align),
    )
    .join(' ');
}

export { layoutColumns };

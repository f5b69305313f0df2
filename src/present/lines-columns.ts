import type { LineListItem, ListLinesParams } from '../api/contract';
import { cellWidth, dayText, expiryText, statusOf } from '../domain/format';
import { type LineNote, noteSummary } from '../services/notes';
import { statusToken, type Token } from './tokens';

/** Columns are data: header, width rule and a pure cell formatter, so tables test without rendering. */
export interface Column<T> {
  readonly id: string;
  readonly header: string;
  /** Fixed width, or a flexible share of what is left (with a minimum, and a maximum if any). */
  readonly width: number | { readonly min: number; readonly flex: number; readonly max?: number };
  readonly align?: 'left' | 'right';
  /** Below this terminal width the column is dropped. */
  readonly minTerminal?: number;
  /**
   * A shorter form for a table that the columns left cannot fill at their least (a cell that must
   * never be cut to an ellipsis says itself in fewer cells instead): its width and its cell.
   */
  readonly short?: { readonly width: number; readonly cell: (row: T, now: number) => string };
  readonly cell: (row: T, now: number) => string;
  readonly tone?: (row: T, now: number) => Token | undefined;
  /** The list order this column shows (its header carries the sort marker when it is the one). */
  readonly sortKey?: string;
  /** How the screen-reader mode says the cell in a row's sentence (present/speech.ts); null leaves
   *  it out. Without it the cell is said as "Header: value". */
  readonly say?: (row: T, now: number) => string | null;
}

/** A column's header, with ↑ or ↓ when the list is sorted by it. */
export function headerText<T>(
  column: Column<T>,
  query: Pick<ListLinesParams, 'orderBy' | 'orderType'>,
): string {
  if (!column.sortKey || column.sortKey !== query.orderBy) return column.header;
  return `${column.header} ${query.orderType === 'desc' ? '↓' : '↑'}`;
}

// A line's sentence (`say`): "smith0042, Grandma, active, premium, 1 connection, expires in 354
// days" — the values a person would say, the created day left to the line's detail.
export const LINE_COLUMNS: readonly Column<LineListItem>[] = [
  {
    id: 'username',
    header: 'USERNAME',
    // A username has at most 30 characters: more width than that is padding.
    width: { min: 12, flex: 3, max: 32 },
    sortKey: 'username',
    cell: (l) => l.username,
    say: (l) => l.username,
  },
  {
    id: 'label',
    header: 'LABEL',
    width: { min: 8, flex: 2 },
    minTerminal: 70,
    cell: (l) => l.label,
    say: (l) => l.label || null,
  },
  {
    id: 'status',
    header: 'STATUS',
    width: 9,
    sortKey: 'enabled',
    cell: (l, now) => statusOf(l, now),
    tone: (l, now) => statusToken(statusOf(l, now)),
    say: (l, now) => statusOf(l, now),
  },
  {
    id: 'type',
    header: 'TYPE',
    width: 7,
    cell: (l) => (l.is_trial ? 'trial' : 'premium'),
    say: (l) => (l.is_trial ? 'trial' : 'premium'),
  },
  {
    id: 'connections',
    header: 'CONN',
    width: 4,
    align: 'right',
    cell: (l) => String(l.connections),
    say: (l) => `${l.connections} connection${l.connections === 1 ? '' : 's'}`,
  },
  {
    id: 'expiry',
    header: 'EXPIRES',
    width: 16,
    sortKey: 'exp_date',
    cell: (l, now) => expiryText(l.exp_date, now),
    tone: (l, now) => (statusOf(l, now) === 'expired' ? 'status.expired' : undefined),
    say: (l, now) => {
      if (l.exp_date === null) return 'never expires';
      const text = expiryText(l.exp_date, now);
      return l.exp_date.ms !== null && l.exp_date.ms < now ? `expired ${text}` : `expires ${text}`;
    },
  },
  {
    id: 'created',
    header: 'CREATED',
    width: 10,
    minTerminal: 90,
    cell: (l) => dayText(l.created_at),
    say: () => null,
  },
];

/** The Note column (`N`): the line's note kept on this machine, summarised; it takes what is left. */
export const noteColumn = (notes: ReadonlyMap<string, LineNote>): Column<LineListItem> => ({
  id: 'note',
  header: 'NOTE',
  width: { min: 10, flex: 1 },
  cell: (l) => noteSummary(notes.get(l.id)),
  say: (l) => {
    const note = noteSummary(notes.get(l.id));
    return note ? `note: ${note}` : null;
  },
});

/** With the Note column, the least needed columns give way sooner, so the username stays whole. */
const GIVE_WAY: Readonly<Record<string, number>> = { label: 95, created: 110 };

/**
 * A line's column lifted onto a row that holds the line (renewals, runway, find): the same cell,
 * tone and spoken form, read from `row.line`; not sortable there.
 */
export const ofLine = <R extends { readonly line: LineListItem }>(c: Column<LineListItem>): Column<R> => ({
  ...c,
  sortKey: undefined,
  cell: (r, now) => c.cell(r.line, now),
  tone: c.tone ? (r, now) => c.tone!(r.line, now) : undefined,
  say: c.say ? (r, now) => c.say!(r.line, now) : undefined,
  short: c.short ? { width: c.short.width, cell: (r, now) => c.short!.cell(r.line, now) } : undefined,
});

/** The browser's columns of these ids, in the table's order, lifted onto rows that hold a line. */
export const lineColumnsOf = <R extends { readonly line: LineListItem }>(ids: readonly string[]) =>
  LINE_COLUMNS.filter((c) => ids.includes(c.id)).map((c) => ofLine<R>(c));

/** The browser's columns: the Note column after the label when it is shown. */
export function lineColumns(notes: ReadonlyMap<string, LineNote> | null): readonly Column<LineListItem>[] {
  if (!notes) return LINE_COLUMNS;
  const at = LINE_COLUMNS.findIndex((c) => c.id === 'status');
  const give = (c: Column<LineListItem>) => (GIVE_WAY[c.id] ? { ...c, minTerminal: GIVE_WAY[c.id] } : c);
  return [...LINE_COLUMNS.slice(0, at).map(give), noteColumn(notes), ...LINE_COLUMNS.slice(at).map(give)];
}

export interface LaidOut<T> {
  readonly column: Column<T>;
  readonly width: number;
}

const leastOf = <T>(c: Column<T>) => (typeof c.width === 'number' ? c.width : c.width.min);

/** The columns shown at `total` cells (those whose `minTerminal` it reaches). */
const shownAt = <T>(columns: readonly Column<T>[], total: number) =>
  columns.filter((c) => !c.minTerminal || total >= c.minTerminal);

/** The least width of the table at `total` cells with `gap` between columns (each at its least). */
export const leastWidth = <T>(columns: readonly Column<T>[], total: number, gap: number): number => {
  const shown = shownAt(columns, total);
  return shown.reduce((n, c) => n + leastOf(c), 0) + gap * Math.max(0, shown.length - 1);
};

/**
 * Widths that fill `total` cells: fixed columns first; flexible ones share the rest. Given the rows
 * on screen, a flexible column wants the width of its widest cell (or header): a column whose
 * content is narrower than its share gives the rest to the others, so a 30-character label is not
 * cut while the username column has room to spare.
 */
export function layoutColumns<T>(
  columns: readonly Column<T>[],
  total: number,
  gap = 1,
  rows?: { readonly items: readonly T[]; readonly now: number },
  /** Give what no column wants to the first that may take it (a screen's row fills its width). */
  fill = true,
): LaidOut<T>[] {
  // Too narrow for the columns left at their least: those with a shorter form take it.
  const isTight = leastWidth(columns, total, gap) > total;
  const shown = shownAt(columns, total).map((c) =>
    isTight && c.short ? { ...c, width: c.short.width, cell: c.short.cell } : c,
  );
  const widths = shown.map(leastOf);
  let spare = Math.max(0, total - widths.reduce((n, w) => n + w, 0) - gap * (shown.length - 1));
  const flex = shown.flatMap((c, i) => (typeof c.width === 'number' ? [] : [i]));
  // What each flexible column would use: its content, or (without rows) as much as it can get.
  const most = (i: number) => (shown[i]!.width as { max?: number }).max ?? Number.POSITIVE_INFINITY;
  const wants = flex.map((i) => {
    const c = shown[i]!;
    if (!rows) return Math.max(0, most(i) - widths[i]!);
    const widest = rows.items.reduce(
      (n, r) => Math.max(n, cellWidth(c.cell(r, rows.now))),
      cellWidth(c.header) + 2,
    );
    return Math.max(0, Math.min(widest, most(i)) - widths[i]!);
  });
  // Share the spare by flex weight, never beyond a column's want; repeat while some is left.
  let open = flex.map((_, k) => k).filter((k) => wants[k]! > 0);
  while (spare > 0 && open.length) {
    const weight = open.reduce((n, k) => n + (shown[flex[k]!]!.width as { flex: number }).flex, 0);
    let given = 0;
    for (const k of open) {
      const share = Math.floor((spare * (shown[flex[k]!]!.width as { flex: number }).flex) / weight);
      const g = Math.min(share, wants[k]!);
      widths[flex[k]!]! += g;
      wants[k]! -= g;
      given += g;
    }
    spare -= given;
    open = open.filter((k) => wants[k]! > 0);
    if (given === 0) {
      // Rounding leftovers: one cell at a time, first column first.
      for (const k of open) {
        if (spare === 0) break;
        widths[flex[k]!]! += 1;
        wants[k]! -= 1;
        spare--;
      }
      open = open.filter((k) => wants[k]! > 0);
    }
  }
  // Whatever no column wants goes to the first flexible one below its maximum (else the first one),
  // so a screen's row still fills the width; a table that follows its content stays as it is.
  const taker = flex.find((i) => widths[i]! < most(i)) ?? flex[0];
  if (fill && spare > 0 && taker !== undefined) widths[taker]! += spare;
  return shown.map((column, i) => ({ column, width: widths[i]! }));
}

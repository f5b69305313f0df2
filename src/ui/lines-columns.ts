import type { LineListItem, ListLinesParams } from '../api/contract';
import { dayText, expiryText, statusOf } from '../domain/format';
import { statusToken, type Token } from './theme';

/** Columns are data: header, width rule and a pure cell formatter, so tables test without rendering. */
export interface Column<T> {
  readonly id: string;
  readonly header: string;
  /** Fixed width, or a flexible share of what is left (with a minimum). */
  readonly width: number | { readonly min: number; readonly flex: number };
  readonly align?: 'left' | 'right';
  /** Below this terminal width the column is dropped. */
  readonly minTerminal?: number;
  readonly cell: (row: T, now: number) => string;
  readonly tone?: (row: T, now: number) => Token | undefined;
  /** The list order this column shows (its header carries the sort marker when it is the one). */
  readonly sortKey?: string;
}

/** A column's header, with ↑ or ↓ when the list is sorted by it. */
export function headerText<T>(
  column: Column<T>,
  query: Pick<ListLinesParams, 'orderBy' | 'orderType'>,
): string {
  if (!column.sortKey || column.sortKey !== query.orderBy) return column.header;
  return `${column.header} ${query.orderType === 'desc' ? '↓' : '↑'}`;
}

export const LINE_COLUMNS: readonly Column<LineListItem>[] = [
  {
    id: 'username',
    header: 'USERNAME',
    width: { min: 12, flex: 3 },
    sortKey: 'username',
    cell: (l) => l.username,
  },
  { id: 'label', header: 'LABEL', width: { min: 8, flex: 2 }, minTerminal: 70, cell: (l) => l.label },
  {
    id: 'status',
    header: 'STATUS',
    width: 9,
    sortKey: 'enabled',
    cell: (l, now) => statusOf(l, now),
    tone: (l, now) => statusToken(statusOf(l, now)),
  },
  { id: 'type', header: 'TYPE', width: 7, cell: (l) => (l.is_trial ? 'trial' : 'premium') },
  { id: 'connections', header: 'CONN', width: 4, align: 'right', cell: (l) => String(l.connections) },
  {
    id: 'expiry',
    header: 'EXPIRES',
    width: 16,
    sortKey: 'exp_date',
    cell: (l, now) => expiryText(l.exp_date, now),
    tone: (l, now) => (statusOf(l, now) === 'expired' ? 'status.expired' : undefined),
  },
  { id: 'created', header: 'CREATED', width: 10, minTerminal: 90, cell: (l) => dayText(l.created_at) },
];

export interface LaidOut<T> {
  readonly column: Column<T>;
  readonly width: number;
}

/** Widths that fill `total` cells: fixed columns first, flexible ones share the rest. */
export function layoutColumns<T>(columns: readonly Column<T>[], total: number, gap = 1): LaidOut<T>[] {
  const shown = columns.filter((c) => !c.minTerminal || total >= c.minTerminal);
  const fixed = shown.reduce((n, c) => n + (typeof c.width === 'number' ? c.width : c.width.min), 0);
  let spare = Math.max(0, total - fixed - gap * (shown.length - 1));
  const flexTotal = shown.reduce((n, c) => n + (typeof c.width === 'number' ? 0 : c.width.flex), 0);
  const out = shown.map((column) => {
    if (typeof column.width === 'number') return { column, width: column.width };
    const extra = flexTotal ? Math.floor((spare * column.width.flex) / flexTotal) : 0;
    return { column, width: column.width.min + extra };
  });
  // Rounding leftovers go to the first flexible column.
  spare -= out.reduce(
    (n, o) =>
      n + (typeof o.column.width === 'number' ? 0 : o.width - (o.column.width as { min: number }).min),
    0,
  );
  const first = out.find((o) => typeof o.column.width !== 'number');
  if (first && spare > 0) (first as { width: number }).width += spare;
  return out;
}

/**
 * The headless output formats, pure: a record per item (the stable JSON shape), fields picked by
 * name, CSV, and tables — sized to the terminal for people, tab-separated when piped. The app's
 * column definitions are reused (columns are data), so a table here reads like the screen.
 */
import type { Line, LineListItem, ServerDate } from '../api/contract';
import { canonicalMs, IsoDate } from '../api/contract/dates';
import { LINE_FIELD_NAMES } from '../commands/spec';
import { csvCell } from '../domain/csv';
import { cellWidth, fitWidth, statusOf } from '../domain/format';
import { type Column, layoutColumns, leastWidth } from '../present/lines-columns';
import type { Token } from '../present/tokens';
import type { Output, Tint } from './output';

type Scalar = string | number | boolean | null;
export type Row = Readonly<Record<string, Scalar | readonly Scalar[]>>;

/**
 * A date as the server meant it: ISO 8601 when it could be read, its own text when not. Text that is
 * already what toISOString would print (canonical, and read as this very time) is kept: `lines --all`
 * prints 300,000 dates, and a Date each was ~0.3 s of it.
 */
export function dateValue(d: ServerDate | null): string | null {
  if (d === null) return null;
  if (d.ms === null) return d.raw;
  // Read as canonical text at the parse (`parseServerDate`): its text is its time's ISO form.
  if (d instanceof IsoDate) return d.raw;
  const r = d.raw;
  if (canonicalMs(r) === d.ms) return r;
  return new Date(d.ms).toISOString();
}

/** Every field a line record has, in the order JSON and CSV print them (the table's, for completion). */
export const LINE_FIELDS = LINE_FIELD_NAMES;
/** Printed unless --fields says otherwise: every field but the password. */
export const DEFAULT_LINE_FIELDS = LINE_FIELDS.filter((f) => f !== 'password');

/** Each field of a line record, read from the line (`lineRecord`, `lineRows`). */
const LINE_FIELD_OF = new Map<string, (l: LineListItem | Line, nowMs: number) => Scalar>([
  ['id', (l) => l.id],
  ['username', (l) => l.username],
  ['password', (l) => l.password],
  ['label', (l) => l.label],
  ['status', (l, nowMs) => statusOf(l, nowMs)],
  ['type', (l) => (l.is_trial ? 'trial' : 'premium')],
  ['enabled', (l) => l.enabled],
  ['connections', (l) => l.connections],
  ['is_trial', (l) => l.is_trial],
  ['exp_date', (l) => dateValue(l.exp_date)],
  ['start_date', (l) => dateValue(l.start_date)],
  ['created_at', (l) => dateValue(l.created_at)],
  ['hostname', (l) => l.hostname],
  ['macaddress', (l) => ('macaddress' in l ? l.macaddress : null)],
  ['parental_code', (l) => ('macaddress' in l ? l.parental_code : null)],
]);

/** The single-line form's own fields (a listed line has neither). */
const SINGLE_ONLY = new Set(['macaddress', 'parental_code']);

/** The stable record of a line (the single-line form adds MAC address and parental code). */
export function lineRecord(l: LineListItem | Line, nowMs: number): Record<string, Scalar> {
  const single = 'macaddress' in l;
  const rec: Record<string, Scalar> = {};
  for (const [name, field] of LINE_FIELD_OF)
    if (single || !SINGLE_ONLY.has(name)) rec[name] = field(l, nowMs);
  return rec;
}

/**
 * `pick(lineRecord(l, nowMs), fields)`, the same row, made without the whole record first (issue 27:
 * `lines --all` makes 100,000 rows): `lineRows(fields)` looks the fields up once, for every row.
 */
export function lineRows(fields: readonly string[]): (l: LineListItem | Line, nowMs: number) => Row {
  if (fields.length === DEFAULT_LINE_FIELDS.length && fields.every((f, i) => f === DEFAULT_LINE_FIELDS[i]))
    return defaultRow;
  const names = [...fields];
  const getters = names.map((f) => LINE_FIELD_OF.get(f) ?? (() => null));
  return (l, nowMs) => {
    const out: Record<string, Scalar> = {};
    for (let i = 0; i < names.length; i++) out[names[i]!] = getters[i]!(l, nowMs) ?? null;
    return out;
  };
}

/**
 * The row of the default fields, as one object literal (one shape, its keys in order) rather than
 * set key by key from a list of names: what every `lines --all` without `--fields` prints, 100,000
 * rows (issue 27). test/headless/line-row.test.ts holds it to `pick(lineRecord(…))`.
 */
const defaultRow = (l: LineListItem | Line, nowMs: number): Row => ({
  id: l.id ?? null,
  username: l.username ?? null,
  label: l.label ?? null,
  status: statusOf(l, nowMs),
  type: l.is_trial ? 'trial' : 'premium',
  enabled: l.enabled ?? null,
  connections: l.connections ?? null,
  is_trial: l.is_trial ?? null,
  exp_date: dateValue(l.exp_date),
  start_date: dateValue(l.start_date),
  created_at: dateValue(l.created_at),
  hostname: l.hostname ?? null,
});

/** `--fields a,b`: the names, each one known; or the first unknown one. */
export function parseFields(
  text: string | undefined,
  known: readonly string[],
): { fields: readonly string[] } | { unknown: string } | null {
  if (text === undefined) return null;
  const fields = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = fields.find((f) => !known.includes(f));
  if (unknown !== undefined || !fields.length) return { unknown: unknown ?? '' };
  return { fields };
}

/** The fields named, in their order (a plain loop: `lines --all` picks 100,000 records). */
export function pick(rec: Row, fields: readonly string[]): Row {
  const out: Record<string, Scalar | readonly Scalar[]> = {};
  for (const f of fields) out[f] = rec[f] ?? null;
  return out;
}

export function csvText(rows: readonly Row[], fields: readonly string[], header = true): string {
  const lines = rows.map((r) => fields.map((f) => csvCell(cellOf(r[f]))).join(','));
  return `${[...(header ? [fields.join(',')] : []), ...lines].join('\n')}\n`;
}

const cellOf = (v: Scalar | readonly Scalar[] | undefined): string =>
  v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : String(v);

/** Columns for any record by field name: for --fields, and for tables with no columns of their own. */
export function fieldColumns(fields: readonly string[]): Column<Row>[] {
  return fields.map((f) => ({
    id: f,
    header: f.toUpperCase(),
    width: { min: Math.min(12, f.length + 2), flex: 1 },
    cell: (r: Row) => cellOf(r[f]),
  }));
}

const TOKEN_TINT: Partial<Record<Token, Tint>> = {
  'status.active': 'green',
  'status.expiring': 'yellow',
  'status.expired': 'red',
  'status.suspended': 'magenta',
  'tone.error': 'red',
  'tone.success': 'green',
};

/**
 * For a terminal: columns laid out to its width, cells cut with an ellipsis, statuses in colour
 * (and always in words). Piped: a header and one tab-separated row per item, nothing cut.
 */
export function tableText<T>(
  out: Output,
  columns: readonly Column<T>[],
  rows: readonly T[],
  now: number,
): string {
  if (!out.isTerminal) {
    const clean = (s: string) => s.replace(/[\t\n]/g, ' ');
    const lines = [
      columns.map((c) => c.header).join('\t'),
      ...rows.map((r) => columns.map((c) => clean(c.cell(r, now))).join('\t')),
    ];
    return `${lines.join('\n')}\n`;
  }
  // Widths follow the content: a wide terminal pads nothing (the row ends where its cells do); a
  // narrow one gets single-space gaps, so the username (the column people copy) stays whole; so does
  // a table whose columns at their least need more than the terminal has at two.
  const gap = out.columns < 60 || leastWidth(columns, out.columns, 2) > out.columns ? 1 : 2;
  const laid = layoutColumns(columns, out.columns, gap, { items: rows, now }, false);
  const line = (r: T | null) =>
    laid
      .map(({ column, width }) => {
        const text = fitWidth(r === null ? column.header : column.cell(r, now), width, column.align);
        const token = r === null ? undefined : column.tone?.(r, now);
        return out.tint(text, r === null ? 'dim' : token ? TOKEN_TINT[token] : undefined);
      })
      .join(' '.repeat(gap))
      .trimEnd();
  return `${[line(null), ...rows.map(line)].join('\n')}\n`;
}

/** "Name   value" pairs for one item (account, a line): aligned for people, tab-separated piped. */
export function pairsText(out: Output, pairs: readonly (readonly [string, string, Tint?])[]): string {
  if (!out.isTerminal) return `${pairs.map(([k, v]) => `${k}\t${v.replace(/[\t\n]/g, ' ')}`).join('\n')}\n`;
  const width = Math.max(...pairs.map(([k]) => cellWidth(k))) + 2;
  return `${pairs.map(([k, v, t]) => `${out.tint(fitWidth(k, width), 'dim')}${out.tint(v, t)}`).join('\n')}\n`;
}

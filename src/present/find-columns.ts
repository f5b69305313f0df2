import { countText } from '../domain/format';
import type { FindGroup, FindRow } from '../services/find-lines';
import { type Column, LINE_COLUMNS, ofLine } from './lines-columns';

/** The find screen's table: the browser's username, status and expiry, with the line's id (a
 *  support ticket often names the id). */
export const FIND_COLUMNS: readonly Column<FindRow>[] = [
  ...LINE_COLUMNS.filter((c) => c.id === 'username'),
  // A whole id or none: cut, it matches nothing. On a narrow terminal the username needs the room
  // (two lines cut to "gracesmith01…" cannot be told apart); the detail shows the id.
  { id: 'id', header: 'ID', width: 36, minTerminal: 90, cell: (l) => l.id } as Column<FindRow['line']>,
  ...LINE_COLUMNS.filter((c) => c.id === 'status' || c.id === 'expiry'),
].map((c) => ofLine<FindRow>(c));

const matches = (n: number) => `${countText(n)} ${n === 1 ? 'match' : 'matches'}`;

/** A group's heading: the profile, its host, and what it answered (or that it is still asked). */
export function groupHeading(g: FindGroup): string {
  const who = `${g.source.name} · ${g.source.host}${g.source.isCurrent ? ' (in use)' : ''}`;
  const load = g.load;
  if (load.status === 'error') return `${who}: failed: ${load.error}`;
  if (load.status !== 'ready') return `${who}: searching…`;
  const { lines, total } = load.data;
  if (!lines.length) return `${who}: no match`;
  if (total > lines.length)
    return `${who}: ${countText(lines.length)} of ${matches(total)} shown (a longer text narrows it)`;
  return `${who}: ${matches(lines.length)}`;
}

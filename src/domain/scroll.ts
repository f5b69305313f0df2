/** A window onto a list longer than the screen. Pure: the offset is kept in the store, clamped here. */
export interface Window {
  readonly start: number;
  readonly end: number;
  /** "12–31 of 673 (↑/↓ PgUp/PgDn)"; empty when everything fits. */
  readonly position: string;
}

export function windowOf(total: number, rows: number, offset: number): Window {
  const size = Math.max(1, rows);
  const start = Math.max(0, Math.min(offset, Math.max(0, total - size)));
  const end = Math.min(total, start + size);
  return { start, end, position: total > size ? `${start + 1}–${end} of ${total}` : '' };
}

/**
 * A window onto a list whose items take more than one row (`height(i)`, at least 1): from the
 * offset (clamped so the last items fill the rows), as many items as the rows hold, one at least.
 */
export function windowOfRows(
  total: number,
  rows: number,
  offset: number,
  height: (i: number) => number,
): Window {
  const size = Math.max(1, rows);
  let last = total;
  for (let used = 0; last > 0 && used + height(last - 1) <= size; last--) used += height(last - 1);
  const start = Math.max(0, Math.min(offset, Math.min(last, total - 1)));
  let end = start;
  for (let used = 0; end < total && (end === start || used + height(end) <= size); end++) used += height(end);
  return { start, end, position: start > 0 || end < total ? `${start + 1}–${end} of ${total}` : '' };
}

/** The window of a list that follows a cursor at item `at`: `rows` items with the cursor in their
 *  middle (clamped at the list's ends). */
export const centredWindow = (total: number, rows: number, at: number): Window =>
  windowOf(total, rows, at - Math.floor(Math.max(1, rows) / 2));

/**
 * Where a page key (`direction` 1: down, -1: up) takes a cursor over a list laid out with items it
 * does not stop on between those it does (group headings, notes), shown in a `centredWindow` of
 * `rows` items. `stops`: the items the cursor stops on, ascending; `at`: the stop it is
 * on. A page is of the rows drawn, not of stops: the cursor moves by at most the rows in view less one
 * (the furthest stop that far), so the window moves no more and every item between is drawn on the
 * way; with no stop that near (more than a page of headings and notes together), the next stop.
 * Returns the stop's index in `stops`.
 */
export function pageStop(rows: number, stops: readonly number[], at: number, direction: 1 | -1): number {
  if (!stops.length) return 0;
  const from = Math.max(0, Math.min(stops.length - 1, at));
  const reach = stops[from]! + direction * Math.max(1, rows - 1);
  let to = from;
  for (let k = from + direction; k >= 0 && k < stops.length; k += direction) {
    const item = stops[k]!;
    if (direction > 0 ? item > reach : item < reach) {
      if (to === from) to = k;
      break;
    }
    to = k;
  }
  return to;
}

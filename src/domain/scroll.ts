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

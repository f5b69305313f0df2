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

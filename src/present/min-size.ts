// The smallest terminal the layout is drawn in. Below it the app shows one sentence instead of a
// frame cut in the wrong places, and comes back as it was when the terminal grows.

/**
 * Columns: the browser's fixed columns take 55 (status, type, connections, expiry, a 12-cell
 * username, the cursor and mark cells); the change dialogs show a cost with its estimate note from
 * 60 (at 56 they refuse, too narrow).
 */
export const MIN_COLUMNS = 60;
/**
 * Rows: measured in a pty, a bulk preview's frame (title, total, balance, a line, the scroll note, the
 * hint, two borders) lost its bottom border at 12 rows and held at 13; one more for its total and
 * balance on two rows at this width. The header, flash line, footer and the free last row included.
 */
export const MIN_ROWS = 14;

export const isTooSmall = (columns: number, rows: number): boolean =>
  columns < MIN_COLUMNS || rows < MIN_ROWS;

/**
 * The one sentence a terminal too small gets: "linedesk needs at least 60×14; this terminal is
 * 50×10. Make it larger, or press q to quit." `keys`: the keys that work meanwhile, as written.
 */
export function tooSmallText(
  columns: number,
  rows: number,
  keys: readonly string[],
  isJobRunning = false,
): string {
  const press = keys.length
    ? `, or press ${keys.join(' or ')} to quit${isJobRunning ? ' (twice: a job is running; it stops after the requests in flight)' : ''}`
    : '';
  return `linedesk needs at least ${MIN_COLUMNS}×${MIN_ROWS}; this terminal is ${columns}×${rows}. Make it larger${press}.`;
}

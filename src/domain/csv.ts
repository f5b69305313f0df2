/**
 * CSV cells for files people open in a spreadsheet: one guard for every export (journal, bulk results,
 * customer messages, notes), so a value a server or a customer chose is never run as a formula.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
// "+44 7700 900123" has no letters, so it cannot call a function or reach another cell: an apostrophe
// would only break the number for the tools that send the messages.
const PHONE = /^\+\d[\d ().-]*$/;

/** One cell: empty for null/undefined, a leading = + - @ (or tab, CR) neutralised, quoted when needed. */
export function csvCell(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(s) && !PHONE.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** RFC 4180: CRLF after every record, the header included. */
export function csvText(records: ReadonlyArray<readonly unknown[]>): string {
  return records.map((cells) => `${cells.map(csvCell).join(',')}\r\n`).join('');
}

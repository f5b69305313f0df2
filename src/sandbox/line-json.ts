/**
 * A page of lines written as JSON text straight from SQLite's row arrays: byte for byte what
 * `JSON.stringify` prints for the list form (`listForm` in service.ts), without an object per row,
 * a list-form object per line or a `Date` per date. A page of 100 lines cost ≈ 1 ms in objects and
 * their JSON, most of it `toISOString` (docs/PERFORMANCE.md, "Sandbox").
 */

/** A response body already serialized; the HTTP layer writes its text as is. */
export class JsonBody {
  constructor(readonly text: string) {}
}

/** The text a route's result is sent as. */
export const bodyText = (body: unknown): string =>
  body instanceof JsonBody ? body.text : JSON.stringify(body);

/** The list form's columns, in the list form's key order (the row arrays' order after the rowid). */
export const LIST_ITEM_COLUMNS =
  'id, hostname, username, password, label, enabled, connections, is_trial, exp_date, start_date, created_at';

/** One list-form line from a row `[rowid, ...LIST_ITEM_COLUMNS]`. */
export function listItemJson(r: readonly unknown[]): string {
  return (
    `{"id":${JSON.stringify(r[1])},"hostname":${JSON.stringify(r[2])},"username":${JSON.stringify(r[3])}` +
    `,"password":${JSON.stringify(r[4])},"label":${JSON.stringify(r[5])},"enabled":${r[6] === 1}` +
    `,"connections":${JSON.stringify(r[7])},"is_trial":${r[8] === 1},"exp_date":${isoJson(r[9])}` +
    `,"start_date":${isoJson(r[10])},"created_at":${isoJson(r[11])}}`
  );
}

/** A stored date (epoch ms or null) as `JSON.stringify(new Date(ms).toISOString())` prints it. */
function isoJson(ms: unknown): string {
  return ms === null ? 'null' : `"${isoString(ms as number)}"`;
}

const DAY_MS = 86_400_000;
/** Years 0000–9999 (what toISOString prints with four digits): outside, Date's own form. */
const MIN_MS = -62_167_219_200_000;
const MAX_MS = 253_402_300_799_999;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** `new Date(ms).toISOString()`, by arithmetic for whole milliseconds in years 0–9999. */
export function isoString(ms: number): string {
  if (!Number.isInteger(ms) || ms < MIN_MS || ms > MAX_MS) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  const yyyy = year < 10 ? `000${year}` : year < 100 ? `00${year}` : year < 1000 ? `0${year}` : `${year}`;
  const mmm = milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : `${milli}`;
  return `${yyyy}-${pad2(month)}-${pad2(day)}T${pad2(h)}:${pad2(m)}:${pad2(s)}.${mmm}Z`;
}

/**
 * Server dates, read liberally. The document promises ISO 8601 and warns that older samples use a
 * long human-readable form; the real service's published samples use JavaScript's `Date.toString`.
 * Three unambiguous forms are read; anything else stays unparsed (`ms: null`), never guessed:
 *  - ISO 8601 date-time ("2027-06-02T09:46:43Z", "2027-06-02 09:46", "2027-06-02"): exact; a value
 *    without a zone is read as UTC, like the sandbox writes;
 *  - `Date.toString` ("Tue Dec 03 2024 18:44:34 GMT+0100 (GMT+01:00)"): exact, by its GMT offset;
 *  - the long form ("Wednesday, June 2, 2027 9:46:43 AM"): it names no zone, so UTC is assumed and
 *    the value is marked `approx` (shown with "≈").
 */
import { sanitize } from '../sanitize';

export interface ServerDate {
  readonly raw: string;
  readonly ms: number | null;
  /** Read from a form that names no time zone: UTC assumed, may be off by the server's offset. */
  readonly approx?: boolean;
}

/**
 * A date read from its canonical text (`canonicalMs`: "2027-06-02T09:46:43.000Z"), which is what
 * `toISOString` prints for its time: printing it is its text, not a second reading (issue 27: three
 * dates a line, 100,000 lines a listing; `dateValue` in headless/format.ts). Made only here
 * (`parseDateText`, `parseServerDate`).
 */
export class IsoDate implements ServerDate {
  constructor(
    readonly raw: string,
    readonly ms: number | null,
  ) {}
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
// "Tue Dec 03 2024 18:44:34 GMT+0100 (GMT+01:00)"; the parenthesised name is free text, ignored.
const TO_STRING =
  /^([A-Za-z]{3}) ([A-Za-z]{3}) (\d{1,2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT([+-]\d{4})(?: \([^()]*\))?$/;
// "Wednesday, June 2, 2027 9:46:43 AM"
const LONG = /^([A-Za-z]+), ([A-Za-z]+) (\d{1,2}), (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))? ?([AaPp][Mm])$/;

/** Index of a month or weekday given in full or by its first three letters ("June", "Jun"); else -1. */
const named = (list: readonly string[], name: string): number => {
  const n = name.toLowerCase();
  return list.findIndex((full) => n === full || n === full.slice(0, 3));
};
const month = (name: string): number | null => {
  const i = named(MONTHS, name);
  return i >= 0 ? i : null;
};
/** The weekday a form names must be the date's own: a mismatch means the text is not what it seems. */
const weekdayOk = (name: string, t: number | null) =>
  t === null || named(DAYS, name) === new Date(t).getUTCDay();

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/**
 * Milliseconds for a calendar date and time in UTC, or null when the parts are not a real moment
 * (Feb 30 would roll into March; Date.UTC reads years 0–99 as 1900–1999). Checked by arithmetic,
 * not by a Date made to read back: three dates a line, 100,000 lines a listing.
 */
export function utc(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms = 0,
): number | null {
  if (y < 100 || mo < 0 || mo > 11 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  if (d > DAYS_IN_MONTH[mo]! + (mo === 1 && leap(y) ? 1 : 0)) return null;
  return daysFromCivil(y, mo + 1, d) * 86_400_000 + h * 3_600_000 + mi * 60_000 + s * 1000 + Math.trunc(ms);
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (month 1–12), by integer arithmetic (the
 * "days from civil" algorithm): what Date.UTC counts, without its call (three dates a line).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const offsetMs = (text: string): number => {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text)!;
  const v = (Number(m[2]) * 60 + Number(m[3])) * 60_000;
  return m[1] === '-' ? -v : v;
};

/** The digit at `i` of `t` (0–9), or a number outside 0–9 when it is not one. */
const digit = (t: string, i: number): number => t.charCodeAt(i) - 48;
/** Whether each of the numbers is a digit's (0–9): one unsigned compare each, no branch between. */
const allDigits = (a: number, b: number, c: number, d: number): boolean =>
  a >>> 0 <= 9 && b >>> 0 <= 9 && c >>> 0 <= 9 && d >>> 0 <= 9;

/**
 * "2027-06-02T09:46:43.000Z", what the sandbox and most servers send, read without a regex or the
 * strings its groups make (three dates a line, 100,000 lines a listing); undefined: another form,
 * for the general reading. A text it reads (not undefined) is every character checked: digits,
 * '-', 'T', ':', '.', 'Z', so nothing in it for sanitize to replace (parseServerDate relies on it).
 * Each character read once as a code unit, at its fixed place (no loop, no one-character strings).
 */
export function canonicalMs(t: string): number | null | undefined {
  if (t.length !== 24 || t.charCodeAt(10) !== 84 || t.charCodeAt(23) !== 90) return undefined;
  if (
    t.charCodeAt(4) !== 45 ||
    t.charCodeAt(7) !== 45 ||
    t.charCodeAt(13) !== 58 ||
    t.charCodeAt(16) !== 58 ||
    t.charCodeAt(19) !== 46
  )
    return undefined;
  const y0 = digit(t, 0);
  const y1 = digit(t, 1);
  const y2 = digit(t, 2);
  const y3 = digit(t, 3);
  const mo0 = digit(t, 5);
  const mo1 = digit(t, 6);
  const d0 = digit(t, 8);
  const d1 = digit(t, 9);
  const h0 = digit(t, 11);
  const h1 = digit(t, 12);
  const mi0 = digit(t, 14);
  const mi1 = digit(t, 15);
  const s0 = digit(t, 17);
  const s1 = digit(t, 18);
  const ms0 = digit(t, 20);
  const ms1 = digit(t, 21);
  const ms2 = digit(t, 22);
  if (
    !allDigits(y0, y1, y2, y3) ||
    !allDigits(mo0, mo1, d0, d1) ||
    !allDigits(h0, h1, mi0, mi1) ||
    !allDigits(s0, s1, ms0, ms1) ||
    ms2 >>> 0 > 9
  )
    return undefined;
  return utc(
    y0 * 1000 + y1 * 100 + y2 * 10 + y3,
    mo0 * 10 + mo1 - 1,
    d0 * 10 + d1,
    h0 * 10 + h1,
    mi0 * 10 + mi1,
    s0 * 10 + s1,
    ms0 * 100 + ms1 * 10 + ms2,
  );
}

/** A date read from sanitized text: the canonical form (`IsoDate`), else the other forms. */
export function parseDateText(clean: string): ServerDate {
  const fast = canonicalMs(clean);
  return fast !== undefined ? new IsoDate(clean, fast) : otherForm(clean);
}

/**
 * A server date as sent: `parseDateText(sanitize(raw))`, with each text read once. The canonical form
 * is read character by character, each one a digit or a separator: nothing in it to sanitize (issue
 * 27: three dates a line). Any other text is not canonical once sanitized either (sanitizing changes
 * nothing, or puts in a placeholder the canonical form never has): it is sanitized, then read by the
 * other forms.
 */
export function parseServerDate(raw: string): ServerDate {
  const ms = canonicalMs(raw);
  return ms !== undefined ? new IsoDate(raw, ms) : otherForm(sanitize(raw));
}

/** A date in any form but the canonical one (ISO 8601 otherwise written, `Date.toString`, the long form). */
function otherForm(clean: string): ServerDate {
  const text = clean.trim();
  let m = ISO.exec(text);
  if (m) {
    const frac = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
    const t = utc(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), frac);
    const zone = m[8];
    return { raw: clean, ms: t === null ? null : zone && zone !== 'Z' ? t - offsetMs(zone) : t };
  }
  m = TO_STRING.exec(text);
  if (m) {
    const mo = month(m[2]!);
    const local = mo === null ? null : utc(+m[4]!, mo, +m[3]!, +m[5]!, +m[6]!, +m[7]!);
    // The weekday is the server's local one: checked against the local calendar date.
    return { raw: clean, ms: local === null || !weekdayOk(m[1]!, local) ? null : local - offsetMs(m[8]!) };
  }
  m = LONG.exec(text);
  if (m) {
    const mo = month(m[2]!);
    const h12 = +m[5]!;
    if (mo === null || h12 < 1 || h12 > 12) return { raw: clean, ms: null };
    const h = (h12 % 12) + (m[8]!.toLowerCase() === 'pm' ? 12 : 0);
    const t = utc(+m[4]!, mo, +m[3]!, h, +m[6]!, +(m[7] ?? 0));
    return t === null || !weekdayOk(m[1]!, t)
      ? { raw: clean, ms: null }
      : { raw: clean, ms: t, approx: true };
  }
  return { raw: clean, ms: null };
}

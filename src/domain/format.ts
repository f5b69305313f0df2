/** Pure text formatting for the UI: no colours, no React, tested as plain functions. */
import type { ServerDate } from '../api/contract';
import { type LineStatus, lineStatus } from './line-status';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "3d", "5h", "12m", "2y"… — the largest whole unit. */
function shortDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < HOUR) return `${Math.max(1, Math.floor(abs / MINUTE))}m`;
  if (abs < DAY) return `${Math.floor(abs / HOUR)}h`;
  if (abs < 365 * DAY) return `${Math.floor(abs / DAY)}d`;
  return `${Math.floor(abs / (365 * DAY))}y`;
}

/**
 * The words of a day count. `in` and `ago` hold `{N}` (2 or more days); a template may give its own
 * (templates.ts), English otherwise.
 */
export interface DayWords {
  readonly today: string;
  readonly tomorrow: string;
  readonly yesterday: string;
  readonly in: string;
  readonly ago: string;
  readonly never: string;
}

export const ENGLISH_DAYS: DayWords = Object.freeze({
  today: 'today',
  tomorrow: 'tomorrow',
  yesterday: 'yesterday',
  in: 'in {N} days',
  ago: '{N} days ago',
  never: 'never',
});

/**
 * The one day rule: how many calendar days from now to `expMs`, counted between their dates in UTC,
 * the zone every date is shown in (so the count always agrees with the date beside it, whatever the
 * hour, the local zone or its daylight saving). 0: it expires (or expired) today; 1: tomorrow; −1:
 * yesterday. Every display of days (the list, the detail, the diagnosis, the renewals, `{DAYS}` and
 * `{DAYSTEXT}` in messages and their exports) comes from here.
 */
export function daysUntil(expMs: number, nowMs: number): number {
  return Math.floor(expMs / DAY) - Math.floor(nowMs / DAY);
}

/** A day count in words: "today", "tomorrow", "yesterday", "in 12 days", "3 days ago". */
export function daysWords(days: number, words: DayWords = ENGLISH_DAYS): string {
  if (days === 0) return words.today;
  if (days === 1) return words.tomorrow;
  if (days === -1) return words.yesterday;
  return (days > 0 ? words.in : words.ago).replace('{N}', countText(Math.abs(days)));
}

/**
 * Expiry as a person reads it, by the one day rule, in the words of `{DAYSTEXT}`: "today",
 * "tomorrow", "in 191 days", "yesterday", "3 days ago" (the status beside it says expired); "never";
 * the raw text when unparsed.
 */
export function expiryText(exp: ServerDate | null, nowMs: number): string {
  if (exp === null) return 'never';
  if (exp.ms === null) return exp.raw;
  return daysWords(daysUntil(exp.ms, nowMs));
}

/** "3d ago" / "in 2h" for any date; "—" when absent. */
export function relativeText(date: ServerDate | null, nowMs: number): string {
  if (date === null) return '—';
  if (date.ms === null) return date.raw;
  const delta = date.ms - nowMs;
  return delta > 0 ? `in ${shortDuration(delta)}` : `${shortDuration(delta)} ago`;
}

/** "2026-11-22 14:05 UTC"; an unparsed date is shown as the server sent it, marked. */
export function absoluteText(date: ServerDate | null): string {
  if (date === null) return '—';
  if (date.ms === null) return `${date.raw} (unparsed)`;
  // A date read from a form with no zone is UTC by assumption: "≈" says so.
  return `${date.approx ? '≈ ' : ''}${new Date(date.ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "2026-11-22" */
export function dayText(date: ServerDate | null): string {
  if (date === null) return '—';
  if (date.ms === null) return date.raw.slice(0, 10);
  return new Date(date.ms).toISOString().slice(0, 10);
}

/**
 * Credits: whole numbers plainly, fractions to two places; thousands separated. Not Intl: its
 * first use loads ICU's number formats, ~5 ms of start-up measured here, for a comma.
 */
export function creditsText(n: number): string {
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  if (!Number.isFinite(abs) || abs >= 1e21) return String(n);
  if (Number.isInteger(abs)) return sign + grouped(String(abs));
  const [whole, cents] = abs.toFixed(2).split('.');
  return `${sign}${grouped(whole!)}.${cents}`;
}

/** An amount of credits with its unit: "1 credit", "1,000 credits", "2.50 credits". */
export const credits = (n: number): string => `${creditsText(n)} ${n === 1 ? 'credit' : 'credits'}`;

/** A count with its noun: "1 line", "5,000 lines" (the plural is the noun and an s). */
export const counted = (n: number, noun: string): string => `${countText(n)} ${n === 1 ? noun : `${noun}s`}`;

/** The first names of a list, as a notice names them: "a, b, c" ("…" after the third when there are more). */
export const firstNames = (names: readonly string[], shown = 3): string =>
  `${names.slice(0, shown).join(', ')}${names.length > shown ? '…' : ''}`;

/** Lines as a notice names them: their count and the first three names ("4 lines (a, b, c…)"). */
export const linesNamed = (names: readonly string[]): string =>
  `${counted(names.length, 'line')} (${firstNames(names)})`;

/** Whole numbers, thousands separated: "100,000". */
export function countText(n: number): string {
  return creditsText(Math.trunc(n));
}

/** "1234567" → "1,234,567" */
function grouped(digits: string): string {
  let out = digits.slice(-3);
  for (let end = digits.length - 3; end > 0; end -= 3)
    out = `${digits.slice(Math.max(0, end - 3), end)},${out}`;
  return out;
}

export function statusOf(line: { enabled: boolean; exp_date: ServerDate | null }, nowMs: number): LineStatus {
  const exp = line.exp_date;
  return lineStatus(
    { enabled: line.enabled, expMs: exp?.ms ?? null, expUnreadable: exp !== null && exp.ms === null },
    nowMs,
  );
}

/**
 * The cells one character takes after `prev` (the character before it, 0 at the start) took
 * `prevCells`, as the terminal and Ink draw them: wide East Asian and emoji shown as emoji two;
 * combining marks, tags (of a flag the sanitizer keeps: its black flag is its two cells) and
 * variation selectors none, except VS16 making a one-cell pictograph an emoji (❤️: two); a skin tone
 * after an emoji none (👍🏽: two); a regional indicator one (a flag of two: two cells).
 */
export function charCells(cp: number, prev: number, prevCells: number): number {
  if (cp < 0x300) return 1;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0xe0000 && cp <= 0xe007f) || (cp >= 0xfe00 && cp <= 0xfe0e))
    return 0;
  if (cp === 0xfe0f) return prevCells === 1 && PICTOGRAPH.test(String.fromCodePoint(prev)) ? 1 : 0;
  if (cp >= 0x1f3fb && cp <= 0x1f3ff && prevCells === 2) return 0;
  return isWide(cp) ? 2 : 1;
}

/** Width in terminal cells (`charCells`, character by character). */
export function cellWidth(text: string): number {
  let w = 0;
  let prev = 0;
  let prevCells = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    prevCells = charCells(cp, prev, prevCells);
    w += prevCells;
    prev = cp;
  }
  return w;
}

const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/**
 * Which symbols of U+2300–2BFF and U+1F000–1FAFF are two cells: those shown as emoji by default, and
 * the enclosed ideographic supplement; regional indicators stay one each. Made once (a test a
 * character in every row drawn was measurable).
 */
const SYMBOLS_LOW = 0x2300;
const SYMBOLS_HIGH = 0x1f000;
const wideSymbols = (from: number, to: number) => {
  const shown = /\p{Emoji_Presentation}/u;
  const t = new Uint8Array(to - from);
  for (let cp = from; cp < to; cp++)
    t[cp - from] =
      (cp >= 0x1f200 && cp <= 0x1f2ff) ||
      (!(cp >= 0x1f1e6 && cp <= 0x1f1ff) && shown.test(String.fromCodePoint(cp)))
        ? 1
        : 0;
  return t;
};
// Made on the first symbol asked about, not at load: ≈ 5,000 regex tests (1.5 ms) that a command
// printing JSON, which measures no text, would pay at every start (issue 27).
let WIDE_LOW: Uint8Array | undefined;
let WIDE_HIGH: Uint8Array | undefined;

export function isWide(cp: number): boolean {
  if (cp >= SYMBOLS_LOW && cp < 0x2c00) {
    WIDE_LOW ??= wideSymbols(SYMBOLS_LOW, 0x2c00);
    return WIDE_LOW[cp - SYMBOLS_LOW] === 1;
  }
  if (cp >= SYMBOLS_HIGH && cp < 0x1fb00) {
    WIDE_HIGH ??= wideSymbols(SYMBOLS_HIGH, 0x1fb00);
    return WIDE_HIGH[cp - SYMBOLS_HIGH] === 1;
  }
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x16fe0 && cp <= 0x1b2ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Cuts to `width` cells with an ellipsis, or pads with spaces to exactly `width`. */
export function fitWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  let w = cellWidth(text);
  let out = text;
  if (w > width) {
    out = '';
    w = 0;
    let prev = 0;
    let prevCells = 0;
    /** A regional indicator just taken that has no partner yet: a flag is never cut in half. */
    let lone = false;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const cw = charCells(cp, prev, prevCells);
      if (w + cw > width - 1) {
        if (lone) {
          out = out.slice(0, -2);
          w -= 1;
        }
        break;
      }
      const ri = cp >= 0x1f1e6 && cp <= 0x1f1ff;
      lone = ri && !lone;
      out += ch;
      w += cw;
      prev = cp;
      prevCells = cw;
    }
    out += '…';
    w += 1;
  }
  const pad = ' '.repeat(Math.max(0, width - w));
  return align === 'right' ? pad + out : out + pad;
}

/** "41–60 of 240", "987–1,020 of 100,000" */
export function positionText(offset: number, count: number, total: number): string {
  if (total === 0 || count === 0) return `0 of ${countText(total)}`;
  return `${countText(offset + 1)}–${countText(offset + count)} of ${countText(total)}`;
}

/** Characters of a name a server sent shown at most where it names an item that did not read. */
export const SHOWN_NAME = 60;

/**
 * A name as shown where it names an item that did not read: its first SHOWN_NAME characters (code
 * points), and "…" when there were more. For display only: the item keeps its whole name, and a
 * lookup compares that (a name cut and then compared would answer to the wrong line or to none).
 */
export function shownName(name: string): string {
  let n = 0;
  let end = 0;
  /**
   * Where the flag being read began, while what follows can continue it (tags after a black flag, the
   * second regional indicator of a pair): a cut never splits a flag.
   */
  let flag = -1;
  let pairOpen = false;
  for (const c of name) {
    const cp = c.codePointAt(0)!;
    const tag = cp >= 0xe0000 && cp <= 0xe007f;
    const ri = cp >= 0x1f1e6 && cp <= 0x1f1ff;
    const joins = flag >= 0 && ((tag && !pairOpen) || (ri && pairOpen));
    if (n++ === SHOWN_NAME) return `${name.slice(0, joins ? flag : end)}…`;
    if (cp === 0x1f3f4 || (ri && !pairOpen)) [flag, pairOpen] = [end, ri];
    else if (ri || !tag) [flag, pairOpen] = [-1, false];
    end += c.length;
  }
  return name;
}

/** A list item the server sent that could not be read, as a row: who, and which field was wrong. */
export function unreadableText(u: {
  index: number;
  id: string | null;
  username: string | null;
  field: string;
  message: string;
}): string {
  const who = u.username ?? u.id;
  return `unreadable line ${who === null ? `#${u.index + 1}` : shownName(who)}: ${u.field} (${u.message})`;
}

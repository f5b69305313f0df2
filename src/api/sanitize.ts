/**
 * Server strings reach the terminal through Ink, which writes them verbatim: an ESC in a line label
 * could retitle the window or write the clipboard (OSC 52). Every string a server sends passes through
 * here while it is parsed, so no later layer has to remember.
 */

/** Shown in place of anything that could act on the terminal; visible, and itself harmless. */
export const PLACEHOLDER = '\uFFFD';

// C0 controls, DEL, C1 (incl. the one-character CSI U+009B), bidi and invisible format characters
// (U+061C, U+180E, U+200B–200F, U+2060–2069, U+FEFF, the interlinear annotation marks U+FFF9–FFFB),
// the Unicode line/paragraph separators, and the tag characters U+E0000–E007F (invisible text a
// reader cannot see: each one pair of code units, replaced by one placeholder).
//
// First, as a group kept as it is, the only tags kept: the flags of England, Scotland and Wales, each
// the black flag U+1F3F4, the tags "gb" then "eng", "sct" or "wls", and the cancel tag U+E007F, whole
// (a terminal draws one flag, two cells wide). Every other tag, a part of one of these included, and
// any other tag sequence (another region's flag) is replaced: text a reader cannot see.
const FORBIDDEN_SINGLE_LINE =
  /(\uD83C\uDFF4\uDB40\uDC67\uDB40\uDC62(?:\uDB40\uDC65\uDB40\uDC6E\uDB40\uDC67|\uDB40\uDC73\uDB40\uDC63\uDB40\uDC74|\uDB40\uDC77\uDB40\uDC6C\uDB40\uDC73)\uDB40\uDC7F)|[\u0000-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]/g;
// Multi-line text (messages) may keep LF and TAB; CR stays forbidden (a lone CR overwrites the line).
const FORBIDDEN_MULTI_LINE =
  /(\uD83C\uDFF4\uDB40\uDC67\uDB40\uDC62(?:\uDB40\uDC65\uDB40\uDC6E\uDB40\uDC67|\uDB40\uDC73\uDB40\uDC63\uDB40\uDC74|\uDB40\uDC77\uDB40\uDC6C\uDB40\uDC73)\uDB40\uDC7F)|[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]/g;

/** One forbidden character, anywhere (no `g`: its test keeps no `lastIndex` between calls); a flag of
 *  the three kept matches too (the text is then replaced, keeping the flag). */
const ANY_FORBIDDEN = new RegExp(FORBIDDEN_SINGLE_LINE.source);

/** A match of the rule: a kept flag as it is, anything else `by`. */
const replaced = (by: string) => (match: string, flag: string | undefined) => (flag ? match : by);
const toPlaceholder = replaced(PLACEHOLDER);
const toNothing = replaced('');

/**
 * Nearly every string a server sends holds no forbidden character: the rule's own class, tested
 * once, returns it as it is; only a string that holds one is replaced. V8 runs the class as native
 * code (issue 27: five strings a line, 100,000 lines a listing; the loop over code units for
 * printable ASCII it replaces took ≈ 20 % longer over a listing's 505,050 strings).
 */
export function sanitize(text: string): string {
  return ANY_FORBIDDEN.test(text) ? text.replace(FORBIDDEN_SINGLE_LINE, toPlaceholder) : text;
}

/** Typed text keeps none of it at all: a placeholder in a field would be sent as typed. */
export function stripForbidden(text: string): string {
  return text.replace(FORBIDDEN_SINGLE_LINE, toNothing);
}

export function sanitizeMultiline(text: string): string {
  return text.replace(FORBIDDEN_MULTI_LINE, toPlaceholder);
}

/**
 * True when every string `JSON.parse` can read from these bytes (keys and values) is printable ASCII,
 * U+0020–U+007E, where the rule above forbids nothing: the bytes are ASCII, none is DEL (0x7F), and
 * none is a backslash, so no escape (`\n`, `\u001b`, `\u2028`, a tag's pair) can write anything
 * else. A byte below 0x20 cannot stand raw in a JSON string (`JSON.parse` refuses it): it can only be
 * whitespace between tokens. A reply for which this holds needs no `sanitize` of its strings; any
 * other is sanitized string by string (issue 27: ≈ 0.5 ms of native scans a 1,000-page listing,
 * where its 500,000 strings' tests cost 15–40 ms).
 */
export function jsonStringsPrintable(bytes: Uint8Array): boolean {
  return (
    process.getBuiltinModule('node:buffer').isAscii(bytes) &&
    bytes.indexOf(0x7f) === -1 &&
    bytes.indexOf(0x5c) === -1
  );
}

/** True when the text holds nothing that sanitize() would replace. */
export function isTerminalSafe(text: string): boolean {
  return !ANY_FORBIDDEN.test(text) || sanitize(text) === text;
}

// Whole escape sequences, payload included, so an OSC 52 clipboard write or a window title leaves
// nothing behind ("]52;c;…"). String sequences (OSC, DCS, SOS, PM, APC, 7- or 8-bit) run to BEL or
// ST, or to the end when unterminated; a CSI or other escape cut short goes as far as it got.
const STRING_SEQ = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)/g;
const CSI_SEQ = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?/g;
const OTHER_ESC = /\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/** Text a person will read elsewhere (a message, a note): escape sequences removed whole. */
export function stripSequences(text: string): string {
  return text.replace(STRING_SEQ, '').replace(CSI_SEQ, '').replace(OTHER_ESC, '');
}

/**
 * Server strings reach the terminal through Ink, which writes them verbatim: an ESC in a line label
 * could retitle the window or write the clipboard (OSC 52). Every string a server sends passes through
 * here while it is parsed, so no later layer has to remember.
 */

/** Shown in place of anything that could act on the terminal; visible, and itself harmless. */
export const PLACEHOLDER = '\uFFFD';

// C0 controls, DEL, C1 (incl. the one-character CSI U+009B), bidi and invisible format characters,
// and the Unicode line/paragraph separators.
const FORBIDDEN_SINGLE_LINE =
  /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF]/g;
// Multi-line text (messages) may keep LF and TAB; CR stays forbidden (a lone CR overwrites the line).
const FORBIDDEN_MULTI_LINE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF]/g;

export function sanitize(text: string): string {
  return text.replace(FORBIDDEN_SINGLE_LINE, PLACEHOLDER);
}

export function sanitizeMultiline(text: string): string {
  return text.replace(FORBIDDEN_MULTI_LINE, PLACEHOLDER);
}

const ANY_FORBIDDEN = new RegExp(FORBIDDEN_SINGLE_LINE.source);

/** True when the text holds nothing that sanitize() would replace. */
export function isTerminalSafe(text: string): boolean {
  return !ANY_FORBIDDEN.test(text);
}

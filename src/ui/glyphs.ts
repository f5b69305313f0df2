/**
 * The one place that decides the glyphs the screen is drawn with. A terminal whose locale is not
 * UTF-8 (LANG=C on a bare SSH box) cannot show box drawing, arrows or the ellipsis: there every glyph
 * is its ASCII stand-in, of the same width so no layout moves. Components ask `glyph()` and
 * `borderStyle()`; text from elsewhere (messages, formatted values) passes `asciiText` on its way
 * to the terminal (app/ui-entry.tsx), with this same table, so nothing escapes it.
 */
import { isWide } from '../domain/format';

export type GlyphMode = 'utf8' | 'ascii';

/** Named glyphs: [UTF-8, ASCII]. */
const NAMED = {
  cursor: ['›', '>'],
  mark: ['●', '*'],
  unmarked: ['○', 'o'],
  ellipsis: ['…', '.'],
  dash: ['—', '-'],
  range: ['–', '-'],
  dot: ['·', '.'],
  mask: ['•', '*'],
  ok: ['✓', '+'],
  fail: ['✗', 'x'],
  warn: ['⚠', '!'],
  up: ['↑', '^'],
  down: ['↓', 'v'],
  left: ['←', '<'],
  right: ['→', '>'],
  barFull: ['█', '#'],
  barEmpty: ['░', '.'],
} as const satisfies Record<string, readonly [string, string]>;
export type GlyphName = keyof typeof NAMED;

/** Other characters the app's text uses, and every box-drawing piece Ink's borders may draw. */
const MORE: Readonly<Record<string, string>> = {
  '‹': '<',
  '»': '>',
  '«': '<',
  '▶': '>',
  '◀': '<',
  '►': '>',
  '▸': '>',
  '◆': '*',
  '★': '*',
  '✔': '+',
  '✘': 'x',
  '×': 'x',
  '≈': '~',
  '≤': '<',
  '≥': '>',
  '−': '-',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '▒': ':',
  '▓': '#',
  '⏎': '<',
  '\u00a0': ' ',
};

let mode: GlyphMode = 'utf8';

export const setGlyphMode = (m: GlyphMode) => {
  mode = m;
};
export const glyphMode = (): GlyphMode => mode;

export function glyph(name: GlyphName): string {
  return NAMED[name][mode === 'utf8' ? 0 : 1];
}

/** Ink's border style: rounded corners, or + - | in ASCII. */
export const borderStyle = (): 'round' | 'classic' => (mode === 'utf8' ? 'round' : 'classic');

const TABLE = new Map<string, string>([
  ...Object.values(NAMED).map(([u, a]) => [u, a] as const),
  ...Object.entries(MORE),
]);

/** Box drawing (U+2500–257F): lines by direction, corners and joins as '+'. */
function boxPiece(cp: number): string | null {
  if (cp < 0x2500 || cp > 0x257f) return null;
  const ch = String.fromCodePoint(cp);
  if ('─━═╌╍┄┅┈┉╴╶╸╺'.includes(ch)) return '-';
  if ('│┃║╎╏┆┇┊┋╵╷╹╻'.includes(ch)) return '|';
  return '+';
}

/**
 * `text` with every character outside ASCII replaced by its stand-in of the same width (a wide
 * character by as many '?', one the table does not know by '?'). Escape sequences are ASCII and pass.
 */
export function asciiText(text: string): string {
  if (/^[\u0000-\u007f]*$/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch;
    else if (cp >= 0x300 && cp <= 0x36f) continue;
    else out += TABLE.get(ch) ?? boxPiece(cp) ?? (isWide(cp) ? '??' : '?');
  }
  return out;
}

/**
 * Whether the terminal's locale can show UTF-8: the effective one of LC_ALL, then LC_CTYPE, then
 * LANG (the first that is set and not empty) names UTF-8. None set is the C locale: ASCII.
 */
export function localeIsUtf8(env: NodeJS.ProcessEnv): boolean {
  const effective = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((v) => v !== undefined && v !== '') ?? '';
  return /utf-?8/i.test(effective);
}

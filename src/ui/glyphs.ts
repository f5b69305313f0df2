/**
 * The one place that decides the glyphs the screen is drawn with. A terminal whose locale is not
 * UTF-8 (LANG=C on a bare SSH box) cannot show box drawing, arrows or the ellipsis: there every glyph
 * is its ASCII stand-in, of the same width so no layout moves. Components ask `glyph()` and
 * `borderStyle()`; text from elsewhere (messages, formatted values) passes `asciiText` on its way
 * to the terminal (app/ui-entry.tsx), with this same table, so nothing escapes it.
 */
import { isWide } from '../domain/format';

/**
 * 'speech': the screen-reader mode (`--screen-reader`, ui/screen-reader.ts): Ink writes the text
 * without boxes; a glyph that only a sighted user reads (the cursor, a mark, an arrow, a bar) is a
 * word or nothing, and stray glyphs in other text get the ASCII stand-ins.
 */
export type GlyphMode = 'utf8' | 'ascii' | 'speech';

/** Named glyphs: [UTF-8, ASCII, spoken]. */
const NAMED = {
  cursor: ['›', '>', ''],
  mark: ['●', '*', 'marked'],
  unmarked: ['○', 'o', ''],
  ellipsis: ['…', '.', '...'],
  dash: ['—', '-', '-'],
  range: ['–', '-', 'to'],
  dot: ['·', '.', ','],
  mask: ['•', '*', '*'],
  ok: ['✓', '+', 'done'],
  fail: ['✗', 'x', 'error:'],
  warn: ['⚠', '!', 'warning'],
  up: ['↑', '^', 'ascending'],
  down: ['↓', 'v', 'descending'],
  left: ['←', '<', 'left'],
  right: ['→', '>', 'right'],
  barFull: ['█', '#', ''],
  barEmpty: ['░', '.', ''],
} as const satisfies Record<string, readonly [string, string, string]>;
type GlyphName = keyof typeof NAMED;

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
  return NAMED[name][mode === 'utf8' ? 0 : mode === 'ascii' ? 1 : 2];
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
 * What the screen-reader mode writes for a glyph that only marks something to the eye: a blank (the
 * cursor, a mark, a bar, a box's line). Never wider than the glyph: Ink has wrapped the frame already.
 */
const SILENT = new Set(['‹', '›', '●', '○', '▶', '◀', '►', '▸', '◆', '★', '█', '░', '▒', '▓', '▏', '⏎']);

/**
 * `text` with every character outside ASCII replaced by its stand-in of the same width (a wide
 * character by as many '?', one the table does not know by '?'). Escape sequences are ASCII and pass.
 * `speech`: the screen-reader mode's stand-ins, where a marker or a line of a box is a blank.
 */
export function asciiText(text: string, speech = false): string {
  if (/^[\u0000-\u007f]*$/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch;
    // Combining marks, and the tags of a flag the sanitizer keeps (England's): no cell of their own.
    else if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0xe0000 && cp <= 0xe007f)) continue;
    else if (speech && (SILENT.has(ch) || boxPiece(cp) !== null)) out += ' ';
    // A dot between parts is heard as a pause, not the end of a sentence ('.', its ASCII stand-in).
    else if (speech && ch === '·') out += ',';
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

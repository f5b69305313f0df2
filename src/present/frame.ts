// The frame's geometry from the terminal's height, shared by the App and the composition root (so
// the first page is asked for at the size it will be shown at), and the flash's rows, which the body
// gives up (so a list's rows in view are known from the state: store/drawn-for.ts).
import { cellWidth, fitWidth } from '../domain/format';
import type { Tone } from './tokens';

/** Header, flash line and footer take a row each. */
const CHROME_ROWS = 3;
/** The lines browser's own chrome: the status line and the table header. */
export const LINES_CHROME_ROWS = 2;

/** Ink 6 clears the whole screen each frame once a frame is as tall as the terminal: stay below. */
export function frameRows(terminalRows: number): number {
  return Math.max(6, terminalRows - 1);
}

export function bodyRows(terminalRows: number): number {
  return frameRows(terminalRows) - CHROME_ROWS;
}

/** Lines per page in the browser: a page always fits the screen. */
export function linesPageSize(terminalRows: number): number {
  return bodyRows(terminalRows) - LINES_CHROME_ROWS;
}

/**
 * The flash's rows at this width: one, or two when it is longer, wrapped between words so a path
 * it names is never split (a flash that names a file shows it whole); a second row still too long
 * is cut, with an ellipsis.
 */
export function flashRows(text: string, width: number): string[] {
  if (!text || width <= 0 || cellWidth(text) <= width) return [fitWidth(text, width)];
  const words = text.split(' ');
  let first = '';
  let i = 0;
  for (; i < words.length; i++) {
    const next = i === 0 ? words[0]! : `${first} ${words[i]}`;
    if (cellWidth(next) > width && i > 0) break;
    first = next;
  }
  if (i === words.length) return [fitWidth(first, width)];
  return [fitWidth(first, width), fitWidth(`  ${words.slice(i).join(' ')}`, width)];
}

/** The flash as the flash line shows it: the tone said in words (for NO_COLOR) before the text. */
export const flashText = (flash: { readonly text: string; readonly tone: Tone } | null): string =>
  flash?.text
    ? ` ${flash.tone === 'error' ? 'error: ' : flash.tone === 'warning' ? 'warning: ' : ''}${flash.text}`
    : '';

type FlashShown = { readonly text: string; readonly tone: Tone } | null;
/** The last flash and width asked, and the rows it took then. */
let lastAsked: { readonly flash: FlashShown; readonly width: number; readonly rows: number } | null = null;

/**
 * How many rows the flash takes at this width (the body gives up the second). Asked on every frame
 * (the frame's height, every list's count of rows in view: store/drawn-for.ts) and at every key, so
 * the text is wrapped once per flash and width: a flash is replaced, never changed in place.
 */
export function flashRowCount(flash: FlashShown, width: number): number {
  if (lastAsked?.flash !== flash || lastAsked.width !== width)
    lastAsked = { flash, width, rows: flashRows(flashText(flash), width).length };
  return lastAsked.rows;
}

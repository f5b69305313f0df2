// The frame's geometry from the terminal's height, shared by the App and the composition root (so
// the first page is asked for at the size it will be shown at).

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

/**
 * The screen-reader mode (`--screen-reader`, Ink's own `INK_SCREEN_READER=true`, or the setting
 * `screenReader`). Ink draws it (its `isScreenReaderEnabled`): no boxes, each Text as plain text, an
 * `aria-label` in place of what a row draws and `aria-state` said in words ("(selected) …"). What is
 * ours: the glyphs become words (ui/glyphs.ts, mode 'speech'), rows become sentences
 * (present/speech.ts), and the terminal cursor is parked on the selected row (or in the text field
 * being typed into), since a screen reader follows the cursor; Ink places no cursor in this mode (it drops `useCursor`'s position there).
 */

/** Whether the screen-reader mode is asked for: the flag, Ink's own variable, or the setting. */
export function screenReaderWanted(
  flag: boolean,
  env: NodeJS.ProcessEnv,
  setting: boolean | undefined,
): boolean {
  return flag || env.INK_SCREEN_READER === 'true' || setting === true;
}

/** A row Ink wrote with `aria-state={{ selected: true }}`: "(selected) …", perhaps after its role. */
const SELECTED = /^(?:[a-z]+: )?\((?:[a-z]+, )*selected[,)]/;

/** The row of `frame` (as written, lines split on \n) the cursor belongs on: the last selected one. */
export function selectedRow(frame: string): number | null {
  const lines = frame.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) if (SELECTED.test(lines[i]!)) return i;
  return null;
}

/** What Ink writes before a text field (`aria-role="textbox"`, components/TextField.tsx). */
const TEXTBOX = 'textbox: ';

/**
 * Where the cursor belongs in `frame`: in the text field being typed into, after its text (where
 * typing goes on), else at the start of the selected row; null when neither is on screen.
 */
export function focusOf(frame: string): { readonly row: number; readonly column: number } | null {
  const lines = frame.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const at = lines[i]!.lastIndexOf(TEXTBOX);
    if (at >= 0) return { row: i, column: Math.max(at + TEXTBOX.length, lines[i]!.trimEnd().length) };
  }
  const row = selectedRow(frame);
  return row === null ? null : { row, column: 0 };
}

/**
 * A frame cut to the terminal: Ink's screen-reader output has no heights (a screen's clipped rows,
 * a long sentence wrapped), and rows past the bottom would scroll the top away for good (the
 * alternate screen keeps no scrollback) and move the rows the cursor is parked on. The last row
 * (the footer: the keys) stays; the rows before it go, as the drawn screens clip their bodies. Ink
 * then erases more rows than were written, which stops at the top row the frame starts on.
 */
export function fitFrame(frame: string, rows: number): string {
  const lines = frame.split('\n');
  const room = Math.max(1, rows - 1);
  if (lines.length <= room) return frame;
  return [...lines.slice(0, room - 1), lines.at(-1)!].join('\n');
}

const CSI = '\u001b[';
const SHOW_CURSOR = `${CSI}?25h`;

/**
 * Wraps the terminal's `write` so the cursor rests on the selected row, or in the text field being
 * typed into, between frames (`focusOf`), each frame cut to the terminal's rows (`fitFrame`). Ink
 * writes a frame as one string of text (its erase and sync sequences come apart, starting with ESC); once the
 * frame's turn ends, the cursor is moved up to that frame's selected row. Before anything else is
 * written it goes back down, so Ink erases the frame from where it left it.
 */
export function parkingWrite(
  write: (chunk: string) => boolean,
  rows: () => number,
  later: (fn: () => void) => void = queueMicrotask,
): (chunk: string) => boolean {
  let parked = 0;
  // The frame on screen: a write that is not a frame (Ink's synchronized-output markers around a
  // render that changed nothing, an erase, a clipboard sequence) moves the cursor back down first,
  // so the cursor goes back to this frame's focus once that turn ends.
  let frame: string | null = null;
  let scheduled = false;
  const park = () => {
    scheduled = false;
    if (frame === null) return;
    const focus = focusOf(frame);
    if (focus === null) return;
    const up = frame.split('\n').length - 1 - focus.row;
    write(
      `\r${up > 0 ? `${CSI}${up}A` : ''}${focus.column > 0 ? `${CSI}${focus.column}C` : ''}${SHOW_CURSOR}`,
    );
    parked = up;
  };
  return (chunk: string) => {
    const wasParked = parked > 0;
    if (wasParked) write(`${CSI}${parked}B`);
    parked = 0;
    const isFrame = chunk !== '' && !chunk.startsWith('\u001b');
    if (isFrame) {
      chunk = fitFrame(chunk, rows());
      frame = chunk;
    }
    const ok = write(chunk);
    if (!scheduled && frame !== null && (isFrame || wasParked)) {
      scheduled = true;
      later(park);
    }
    return ok;
  };
}

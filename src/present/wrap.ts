import { cellWidth, charCells } from '../domain/format';

/**
 * A line of text cut into pieces of at most `width` terminal cells (a wide character is never
 * split), for a pager that shows whole lines: program output, not a table. An empty line stays one.
 */
export function wrapCells(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (cellWidth(text) <= w) return [text];
  const out: string[] = [];
  let piece = '';
  let used = 0;
  let prev = 0;
  let prevCells = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const cw = charCells(cp, prev, prevCells);
    prev = cp;
    prevCells = cw;
    if (used + cw > w && piece) {
      out.push(piece);
      piece = '';
      used = 0;
    }
    piece += ch;
    used += cw;
  }
  if (piece || !out.length) out.push(piece);
  return out;
}

/**
 * A sentence cut into rows of at most `width` terminal cells at its spaces (a word longer than a
 * row is cut as wrapCells cuts it), for a message that must be read whole: an outcome, a reason.
 */
export function wrapWords(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (cellWidth(text) <= w) return [text];
  const out: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    const joined = row ? `${row} ${word}` : word;
    if (cellWidth(joined) <= w) {
      row = joined;
      continue;
    }
    if (row) out.push(row);
    const pieces = wrapCells(word, w);
    out.push(...pieces.slice(0, -1));
    row = pieces.at(-1)!;
  }
  out.push(row);
  return out;
}

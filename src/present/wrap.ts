import { cellWidth } from '../domain/format';

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
  for (const ch of text) {
    const cw = cellWidth(ch);
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

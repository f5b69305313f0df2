// The screen-reader mode's words for a table row: one sentence from the same column data the table
// draws with (a column's `say`, else "Header: value"), so what is heard is what is shown.
import type { LineListItem } from '../api/contract';
import type { Column } from './lines-columns';

/** Glyphs a value may hold, in words: "conn 1→2" is heard "conn 1 to 2". */
const WORDS: Readonly<Record<string, string>> = {
  '→': ' to ',
  '←': ' from ',
  '↑': ' ascending',
  '↓': ' descending',
  '–': ' to ',
  '…': '...',
  '·': ',',
  '—': ' - ',
  '●': 'marked',
};

/** `text` with its glyphs in words, spaces tidied; a value shown as "—" (none) is said "none". */
export function spoken(text: string): string {
  if (text.trim() === '—') return 'none';
  let out = '';
  for (const ch of text) out += WORDS[ch] ?? ch;
  // "144 active · 33 expiring" is heard "144 active, 33 expiring": no space before the comma.
  return out
    .replace(/\s+/g, ' ')
    .replace(/ ([,;])/g, '$1')
    .trim();
}

/** "EXTRA CONN" → "Extra conn"; "COST~" (an estimate) → "Estimated cost". */
function spokenHeader(header: string): string {
  const estimate = header.endsWith('~');
  const plain = header.replace(/~$/, '').trim().toLowerCase();
  const said = estimate ? `estimated ${plain}` : plain;
  return said.charAt(0).toUpperCase() + said.slice(1);
}

/** One cell as said: the column's `say`, else "Header: value"; null when there is nothing to say. */
function saidCell<T>(column: Column<T>, row: T, now: number): string | null {
  const said = column.say ? column.say(row, now) : null;
  if (column.say) return said ? spoken(said) : null;
  const value = spoken(column.cell(row, now));
  if (value === '') return null;
  return column.header.trim() === '' ? value : `${spokenHeader(column.header)}: ${value}`;
}

/** A row as one sentence: its cells said in the columns' order, joined by commas. */
export function rowSentence<T>(
  columns: readonly Column<T>[],
  row: T,
  now = 0,
  extra: readonly (string | null | false | undefined)[] = [],
): string {
  const parts = columns.map((c) => saidCell(c, row, now)).filter((p): p is string => p !== null);
  return [...parts, ...extra.filter((e): e is string => typeof e === 'string' && e !== '')].join(', ');
}

/**
 * A line of the browser as one sentence: "sofiamurphy161213, Grandma, active, premium, 1
 * connection, expires in 354 days, marked".
 */
export function lineSentence(
  columns: readonly Column<LineListItem>[],
  line: LineListItem,
  now: number,
  state: { readonly isMarked: boolean },
): string {
  return rowSentence(columns, line, now, [state.isMarked && 'marked']);
}

/** A menu's item, numbered: "2 of 5: Copy the password". */
export const menuItem = (index: number, count: number, text: string): string =>
  `${index + 1} of ${count}: ${spoken(text)}`;

/**
 * Progress said in steps, not redrawn: the share done rounded down to `step` percent, so the text
 * (and Ink's frame in the screen-reader mode) changes ten times in a job, not at every line.
 */
export function progressStep(done: number, total: number, step = 10): number {
  if (total <= 0) return 100;
  if (done >= total) return 100;
  return Math.floor((done / total) * (100 / step)) * step;
}

/**
 * About the longest a line's sentence gets (a 30-character username, a label, status, type,
 * connections, expiry, marked): the screen-reader mode's page is cut so each sentence has the rows
 * it wraps to and the frame stays within the terminal (Ink cannot erase rows scrolled off the top).
 */
const SENTENCE_CELLS = 130;

/** The browser's page size in the screen-reader mode: as many sentences as fit their wrapped rows. */
export function spokenPageSize(pageSize: number, columns: number): number {
  return Math.max(1, Math.floor(pageSize / Math.max(1, Math.ceil(SENTENCE_CELLS / Math.max(1, columns)))));
}

/**
 * The terminal rows a sentence takes once wrapped at `width` (at spaces, a longer word cut), as Ink
 * wraps the text it draws in the screen-reader mode: a screen that fits its rows to the terminal
 * counts these, not one row a sentence.
 */
export function wrappedRows(text: string, width: number): number {
  const w = Math.max(1, width);
  let rows = 1;
  let col = 0;
  for (const word of text.split(' ')) {
    const need = col === 0 ? word.length : col + 1 + word.length;
    if (need <= w) {
      col = need;
      continue;
    }
    if (col > 0) rows++;
    // A word longer than the row is cut: it fills whole rows and leaves the rest on the last.
    rows += Math.max(0, Math.ceil(word.length / w) - 1);
    col = word.length % w || (word.length ? w : 0);
  }
  return rows;
}

/**
 * The streamed forms of `linedesk lines`: NDJSON, CSV and the JSON document, printed page by page
 * (one write a page, so 100 lines cost one write, not 100), never held whole in memory.
 */
import { csvText, type Row } from '../format';
import type { Failure } from '../output';

interface StreamFormat {
  /** Printed with the first page: `total` is what that page counted. */
  head(total: number | null): string;
  /** A page's rows, as one chunk (empty rows: nothing, or what the head needs). */
  page(rows: readonly Row[]): string;
  /** After the last page, or once a failure stopped the walk after the head was printed. */
  tail(failure: Failure | null): string;
}

export const ndjsonFormat = (): StreamFormat => ({
  head: () => '',
  page: ndjsonText,
  tail: () => '',
});

/** Each row as JSON on a line of its own: what `JSON.stringify(row)` a row prints, a line each. */
export function ndjsonText(rows: readonly Row[]): string {
  const first = rows[0];
  if (first === undefined) return '';
  const key = Object.keys(first)[0];
  if (key !== undefined && rows.length > 1) {
    // The page as one array, its rows then split apart (issue 27: a JSON.stringify a row, then
    // joined, cost ≈ 1.4× one of the page). Between two rows the array text holds `},{"key":` (rows
    // are flat and share their keys' order): every boundary matches, so as many parts as rows means
    // no string held that text too; any other count is done row by row.
    const text = JSON.stringify(rows);
    const at = `},{${JSON.stringify(key)}:`;
    const parts = text.slice(1, -1).split(at);
    if (parts.length === rows.length) return `${parts.join(`}\n{${JSON.stringify(key)}:`)}\n`;
  }
  let text = '';
  for (const r of rows) text += `${JSON.stringify(r)}\n`;
  return text;
}

export function csvFormat(fields: readonly string[]): StreamFormat {
  let header = true;
  return {
    head: () => '',
    page: (rows) => {
      // The header comes with the first page, even an empty one: an empty list is its header alone.
      const text = rows.length || header ? csvText(rows, fields, header) : '';
      header = false;
      return text;
    },
    tail: () => '',
  };
}

/** `{ "totalHits": N, "lines": [ … ] }` as JSON.stringify(…, null, 2) prints it, built a page at a time. */
const OPEN = '{\n  "lines": [\n';
const CLOSE = '\n  ]\n}';

/**
 * The JSON document, byte for byte the one `JSON.stringify({ totalHits, lines }, null, 2)` prints,
 * streamed. A failure after the head closes the array and adds `"error"` (the object `--json` prints
 * on stderr) after it, so what was printed is still one valid document that says it is incomplete.
 */
export function jsonFormat(): StreamFormat {
  let items = 0;
  const close = () => (items ? '\n  ]' : ']');
  return {
    head: (total) => {
      const whole = JSON.stringify({ totalHits: total ?? 0, lines: [] }, null, 2);
      return whole.slice(0, whole.lastIndexOf('[') + 1);
    },
    page: (rows) => {
      if (!rows.length) return '';
      // Each row indented as it is inside the document: stringify the page in the same nesting.
      const text = JSON.stringify({ lines: rows }, null, 2).slice(OPEN.length, -CLOSE.length);
      const sep = items ? ',\n' : '\n';
      items += rows.length;
      return sep + text;
    },
    tail: (failure) => {
      if (!failure) return `${close()}\n}\n`;
      const error = { code: failure.code, message: failure.message, path: failure.path, exit: failure.exit };
      const text = JSON.stringify({ error }, null, 2).slice(2, -2);
      return `${close()},\n${text}\n}\n`;
    },
  };
}

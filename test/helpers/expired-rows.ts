/**
 * The expired count's fake servers: a list of lines reduced to their expiry (`Row`: ms, or null for
 * a line without one), counted against `NOW`, and the pages a server answers of it. `sortedPage` is a
 * server that keeps the order asked for (by expiry; lines without one first or last), `pageOf` one
 * that lists the rows as they stand. Ids are the lines' places (unique: a server that ignores the
 * offset shows the same line at both ends).
 */
import type { ApiClient } from '../../src/api/client';

export const NOW = 1_000_000;
export type Row = number | null;
export interface PageQuery {
  readonly offset?: number;
  readonly limit?: number;
}

/** How many of `rows` have expired at `NOW`: the count the list has. */
export const truth = (rows: readonly Row[]) => rows.filter((r) => r !== null && r <= NOW).length;

/** `rows` in a sorting server's order: by expiry, the lines without one first (`nullsFirst`) or last. */
export const sorted = (rows: readonly Row[], nullsFirst: boolean): Row[] => {
  const dated = (rows.filter((r) => r !== null) as number[]).sort((x, y) => x - y);
  const nulls = rows.filter((r) => r === null);
  return nullsFirst ? [...nulls, ...dated] : [...dated, ...nulls];
};

/** The page of `list` (in the order it stands) that `q` asks for, at most `cap` lines. */
export const pageOf = (list: readonly Row[], q: PageQuery, cap = 100) => {
  const offset = q.offset ?? 0;
  const limit = Math.min(cap, q.limit ?? 20);
  return {
    totalHits: list.length,
    offset,
    limit,
    unreadable: [],
    lines: list.slice(offset, offset + limit).map((ms, i) => ({
      id: `id${offset + i}`,
      exp_date: ms === null ? null : { ms, raw: String(ms) },
    })),
  };
};

/** The page a sorting server answers of `rows` now. */
export const sortedPage = (rows: readonly Row[], q: PageQuery, nullsFirst = true, cap = 100) =>
  pageOf(sorted(rows, nullsFirst), q, cap);

/** A client of the list only, answered by `listLines`. */
export const listing = (listLines: (q: PageQuery) => unknown) =>
  ({ listLines }) as unknown as Pick<ApiClient, 'listLines'>;

import type { ListLinesParams } from '../api/contract';
import { EXPIRING_WITHIN_DAYS } from '../domain/line-status';
import { DAY_MS } from '../domain/pricing';
import type { Db } from './db';

const ORDER_COLUMNS = { id: 'id', username: 'username', enabled: 'enabled', exp_date: 'exp_date' } as const;

export interface ListTuning {
  /** Pages below this offset follow an index with OFFSET (cheap there, and no list to build after a write). */
  readonly deepOffset: number;
  /**
   * A search matching at most this many lines is sorted from their rows (a lookup each); above it, by
   * the view's cached ordered list, which costs one index walk to build and then little per term.
   */
  readonly lookupMax: number;
}
/** Tests pass small values so that every path runs on a few hundred lines. */
const LIST_TUNING: ListTuning = { deepOffset: 2_000, lookupMax: 2_000 };
const MAX_CACHED = 32;

/** A list's filter without its search: the SQL, its parameters and a cache key naming both. */
interface Filter {
  readonly clause: string;
  readonly params: Record<string, unknown>;
  readonly key: string;
}
interface Names {
  readonly rowids: Int32Array;
  readonly text: string;
  readonly starts: Int32Array;
}
/** A view's lines in order, as rowids; `rank` (rowid → position + 1) is built when a search needs it. */
interface Ordered {
  readonly rowids: Int32Array;
  rank?: Int32Array;
}

/**
 * The lines of a list view, in order, as rowids: built once per view and write, then the total is
 * its length and every page (however deep) a slice. `invalidate()` is called before every write to
 * lines, so nothing cached outlives the data it was read from.
 */
export class LineLists {
  constructor(
    readonly db: Db,
    readonly tuning: ListTuning = LIST_TUNING,
  ) {}

  readonly #ordered = new Map<string, Ordered>();
  readonly #searched = new Map<string, Int32Array>();
  readonly #counts = new Map<string, number>();
  readonly #usernames = new Map<number, Names>();

  invalidate(): void {
    this.#usernames.clear();
    this.#ordered.clear();
    this.#searched.clear();
    this.#counts.clear();
  }

  /**
   * The matching lines' rowids for one page, and the total. Pages follow an index in either
   * direction (id breaks ties in the same direction, so ordering is stable); missing expiry sorts
   * first ascending, last descending. `now` is taken to the whole second so a cached total and its
   * page agree.
   */
  page(accountId: number, q: ListLinesParams, nowMs: number): { total: number; rowids: ArrayLike<number> } {
    const f = filterOf(accountId, q, nowMs);
    const dir = q.orderType === 'desc' ? 'DESC' : 'ASC';
    const col = ORDER_COLUMNS[q.orderBy];
    const order = col === 'id' ? `id ${dir}` : `${col} ${dir}, id ${dir}`;
    const key = `${f.key}|${order}`;
    let list: Int32Array;
    if (q.search) {
      const skey = `${key}|${q.search}`;
      const hit = this.#searched.get(skey);
      list = hit ?? this.#search(f, order, key, q.search);
      if (!hit) remember(this.#searched, skey, list);
    } else {
      const cached = this.#ordered.get(key)?.rowids;
      if (!cached && f.clause === ACCOUNT_ONLY && q.offset < this.tuning.deepOffset) {
        // A first page of everything: LIMIT stops the index walk early; the total is a cached count.
        const rowids = this.#rowids(
          `SELECT rowid FROM lines WHERE ${f.clause} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
          {
            ...f.params,
            limit: q.limit,
            offset: q.offset,
          },
        );
        return { total: this.count(f), rowids };
      }
      list = cached ?? this.#orderedList(f, order, key).rowids;
    }
    return { total: list.length, rowids: list.subarray(q.offset, q.offset + q.limit) };
  }

  /** count(*) of up to 100,000 index entries costs ~8 ms: cached per filter until the next write. */
  count(f: Filter): number {
    let n = this.#counts.get(f.key);
    if (n === undefined) {
      n = (
        this.db.prepareArrays(`SELECT count(*) FROM lines WHERE ${f.clause}`).get(f.params) as [number]
      )[0];
      remember(this.#counts, f.key, n);
    }
    return n;
  }

  #orderedList(f: Filter, order: string, key: string): Ordered {
    let o = this.#ordered.get(key);
    if (!o) {
      o = { rowids: this.#rowids(`SELECT rowid FROM lines WHERE ${f.clause} ORDER BY ${order}`, f.params) };
      remember(this.#ordered, key, o);
    }
    return o;
  }

  /** A search's matches in order: one pass over what matched, never over every line's row. */
  #search(f: Filter, order: string, key: string, term: string): Int32Array {
    const exact = term.toLowerCase();
    if ([...term].length < 3) {
      // Too short for a trigram: a scan of the account's usernames, held in memory (LIKE's own scan
      // over 100,000 rows costs ~20 ms). LIKE's case folding is ASCII's; an id is matched exactly.
      const needle = lowerAscii(term);
      const { rowids, text, starts } = this.#names(f.params.account as number);
      const found: number[] = [];
      // indexOf over one string; a hit counts only inside one username (never across the separator).
      let line = 0;
      let at = text.indexOf(needle);
      while (at >= 0) {
        while (starts[line + 1]! <= at) line++;
        const end = starts[line + 1]!;
        if (at + needle.length < end) {
          found.push(rowids[line]!);
          at = text.indexOf(needle, end);
        } else at = text.indexOf(needle, at + 1);
      }
      const byId = this.#rowids('SELECT rowid FROM lines WHERE id = @exact', { exact });
      return this.#inOrder(f, order, key, Int32Array.from(new Set([...found, ...byId])));
    }
    // Trigram phrase: a case-insensitive substring match, answered from the index alone (every account).
    const fts = `"${term.replaceAll('"', '""')}"`;
    const found = this.#rowids(
      'SELECT rowid FROM lines_search WHERE lines_search MATCH @fts UNION SELECT rowid FROM lines WHERE id = @exact',
      { fts, exact },
    );
    if (!this.#ordered.has(key) && found.length <= this.tuning.lookupMax) {
      // NOT INDEXED: look each match up by rowid (SQLite would rather walk a whole covering index).
      return this.#rowids(
        `SELECT rowid FROM lines NOT INDEXED WHERE ${f.clause} AND rowid IN (SELECT value FROM json_each(@found)) ORDER BY ${order}`,
        { ...f.params, found: JSON.stringify(Array.from(found)) },
      );
    }
    return this.#inOrder(f, order, key, found);
  }

  /** Keeps the rowids that are in the view (this account, this filter), sorted by its order. */
  #inOrder(f: Filter, order: string, key: string, found: Int32Array): Int32Array {
    const o = this.#ordered.get(key) ?? this.#orderedList(f, order, key);
    const rank = o.rank ?? rankOf(o.rowids);
    o.rank = rank;
    // Positions sort natively (no comparator); a position maps back to its rowid through the list.
    const at = new Int32Array(found.length);
    let n = 0;
    for (const r of found) if (r < rank.length && rank[r]! > 0) at[n++] = rank[r]! - 1;
    const kept = at.subarray(0, n).sort();
    for (let i = 0; i < n; i++) kept[i] = o.rowids[kept[i]!]!;
    return kept;
  }

  /**
   * The account's usernames, lower-cased as LIKE compares them, joined by newlines for searches too
   * short for trigrams; `starts[i]` is where username i begins (and `starts[n]` one past the end).
   */
  #names(account: number): Names {
    let names = this.#usernames.get(account);
    if (!names) {
      const rows = this.db
        .prepareArrays('SELECT rowid, username FROM lines WHERE account_id = ?')
        .all(account) as Array<[number, string]>;
      const starts = new Int32Array(rows.length + 1);
      for (let i = 0; i < rows.length; i++) starts[i + 1] = starts[i]! + rows[i]![1].length + 1;
      const text = lowerAscii(rows.map((r) => r[1]).join('\n'));
      names = { rowids: Int32Array.from(rows, (r) => r[0]), text, starts };
      this.#usernames.set(account, names);
    }
    return names;
  }

  #rowids(sql: string, params: Record<string, unknown>): Int32Array {
    const st = this.db.prepareArrays(sql);
    const rows = st.all(params) as Array<[number]>;
    const out = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = rows[i]![0];
    return out;
  }
}

const ACCOUNT_ONLY = 'account_id = @account';

/** The SQL of a view's filters; the key holds only the values its clause reads (`now` only for status). */
export function filterOf(
  accountId: number,
  q: Pick<ListLinesParams, 'status' | 'type'>,
  nowMs: number,
): Filter {
  const now = Math.floor(nowMs / 1000) * 1000;
  const where = [ACCOUNT_ONLY];
  const params: Record<string, unknown> = { account: accountId };
  if (q.status === 'suspended') where.push('enabled = 0');
  if (q.status === 'active') {
    where.push('enabled = 1 AND (exp_date IS NULL OR exp_date > @now)');
    params.now = now;
  }
  if (q.status === 'expiring') {
    where.push('enabled = 1 AND exp_date > @now AND exp_date <= @soon');
    params.now = now;
    params.soon = now + EXPIRING_WITHIN_DAYS * DAY_MS;
  }
  if (q.type !== 'all') where.push(`is_trial = ${q.type === 'trial' ? 1 : 0}`);
  const clause = where.join(' AND ');
  return { clause, params, key: `${clause}|${JSON.stringify(params)}` };
}

/** SQLite's LIKE folds ASCII letters only (no ICU): so does this. */
const lowerAscii = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

function rankOf(rowids: Int32Array): Int32Array {
  let max = 0;
  for (const r of rowids) if (r > max) max = r;
  const rank = new Int32Array(max + 1);
  for (let i = 0; i < rowids.length; i++) rank[rowids[i]!] = i + 1;
  return rank;
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, value);
}

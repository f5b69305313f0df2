import { createHash, timingSafeEqual } from 'node:crypto';
import type { ListLinesParams } from '../api/contract';
import { EXPIRING_WITHIN_DAYS } from '../domain/line-status';
import { DAY_MS } from '../domain/pricing';
import type { Db, Statement } from './db';

export interface AccountRow {
  id: number;
  email: string;
  credits: number;
  opening_credits: number;
  hostname: string;
  mag_portal_url: string;
}
export interface PackageRow {
  id: number;
  package_name: string;
  duration: number;
  is_trial: number;
  credits_cost: number;
  extra_connection_credits_cost: number;
  min_balance: number;
}
export interface LineRow {
  id: string;
  account_id: number;
  username: string;
  password: string;
  label: string;
  enabled: number;
  connections: number;
  is_trial: number;
  exp_date: number | null;
  start_date: number | null;
  created_at: number | null;
  macaddress: string | null;
  parental_code: string | null;
  hostname: string | null;
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest();

const ORDER_COLUMNS = { id: 'id', username: 'username', enabled: 'enabled', exp_date: 'exp_date' } as const;
const LIST_COLUMNS =
  'id, account_id, username, password, label, enabled, connections, is_trial, exp_date, start_date, created_at, hostname';

/** Every SQL statement of the sandbox, prepared once. */
export class Repo {
  constructor(readonly db: Db) {}

  readonly #stmts = new Map<string, Statement>();
  #s(sql: string): Statement {
    let st = this.#stmts.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.#stmts.set(sql, st);
    }
    return st;
  }

  /** Looks the key up by its hash, then compares in constant time. */
  accountForKey(key: string): AccountRow | undefined {
    const hash = hashKey(key);
    const row = this.#s('SELECT key_hash, account_id FROM api_keys WHERE key_hash = ?').get(hash) as
      | { key_hash: Buffer; account_id: number }
      | undefined;
    if (!row || !timingSafeEqual(row.key_hash, hash)) return undefined;
    return this.account(row.account_id);
  }

  account(id: number): AccountRow | undefined {
    return this.#s('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  }

  accounts(): Array<AccountRow & { key: string }> {
    return this.#s(
      'SELECT a.*, (SELECT key FROM api_keys k WHERE k.account_id = a.id ORDER BY created_at, key LIMIT 1) AS key FROM accounts a ORDER BY a.id',
    ).all() as Array<AccountRow & { key: string }>;
  }

  linesCount(accountId: number): number {
    return this.#count('account_id = @account', { account: accountId });
  }

  /** count(*) of up to 100,000 index entries costs ~8 ms: cached per clause until the next write. */
  #count(clause: string, params: Record<string, unknown>): number {
    const key = `${this.#generation}|${clause}|${JSON.stringify(params)}`;
    let n = this.#counts.get(key);
    if (n === undefined) {
      n = (this.#s(`SELECT count(*) AS n FROM lines WHERE ${clause}`).get(params) as { n: number }).n;
      if (this.#counts.size >= 512) this.#counts.clear();
      this.#counts.set(key, n);
    }
    return n;
  }

  packages(type: 'all' | 'premium' | 'trial'): PackageRow[] {
    const where = type === 'all' ? '' : `WHERE is_trial = ${type === 'trial' ? 1 : 0}`;
    return this.#s(`SELECT * FROM packages ${where} ORDER BY is_trial, duration`).all() as PackageRow[];
  }

  packageFor(isTrial: boolean, duration: number): PackageRow | undefined {
    return this.#s('SELECT * FROM packages WHERE is_trial = ? AND duration = ?').get(
      isTrial ? 1 : 0,
      duration,
    ) as PackageRow | undefined;
  }

  bouquets(): Array<{ id: number; kind: string; label: string }> {
    return this.#s('SELECT id, kind, label FROM bouquets ORDER BY kind, id').all() as Array<{
      id: number;
      kind: string;
      label: string;
    }>;
  }

  unknownBouquets(ids: readonly number[]): number[] {
    const known = new Set(this.bouquets().map((b) => b.id));
    return ids.filter((id) => !known.has(id));
  }

  usernameTaken(username: string): boolean {
    return this.#s('SELECT 1 FROM lines WHERE username = ?').get(username) !== undefined;
  }

  /** A line of this account matching every identifier given; another account's line is not found. */
  findLine(
    accountId: number,
    ident: { id?: string; username?: string; macaddress?: string },
  ): LineRow | undefined {
    const row = (
      ident.id !== undefined
        ? this.#s('SELECT * FROM lines WHERE id = ? AND account_id = ?').get(
            ident.id.toLowerCase(),
            accountId,
          )
        : this.#s('SELECT * FROM lines WHERE username = ? AND account_id = ?').get(ident.username, accountId)
    ) as LineRow | undefined;
    if (!row) return undefined;
    if (ident.username !== undefined && row.username !== ident.username) return undefined;
    if (
      ident.macaddress !== undefined &&
      (row.macaddress ?? '').toLowerCase() !== ident.macaddress.toLowerCase()
    )
      return undefined;
    return row;
  }

  lineBouquets(lineId: string): number[] {
    return (
      this.#s('SELECT bouquet_id FROM line_bouquets WHERE line_id = ? ORDER BY bouquet_id').all(
        lineId,
      ) as Array<{
        bouquet_id: number;
      }>
    ).map((r) => r.bouquet_id);
  }

  /**
   * One page and the total. Pages follow an index in either direction (id breaks ties in the same
   * direction, so ordering is stable); missing expiry sorts first ascending, last descending.
   * Totals are cached per filter until the next write; `now` is taken to the whole second so a
   * cached total and its page agree.
   */
  list(accountId: number, q: ListLinesParams, nowMs: number): { total: number; rows: LineRow[] } {
    const now = Math.floor(nowMs / 1000) * 1000;
    const where = ['account_id = @account'];
    const params: Record<string, unknown> = {
      account: accountId,
      now,
      soon: now + EXPIRING_WITHIN_DAYS * DAY_MS,
    };
    if (q.status === 'suspended') where.push('enabled = 0');
    if (q.status === 'active') where.push('enabled = 1 AND (exp_date IS NULL OR exp_date > @now)');
    if (q.status === 'expiring') where.push('enabled = 1 AND exp_date > @now AND exp_date <= @soon');
    if (q.type !== 'all') where.push(`is_trial = ${q.type === 'trial' ? 1 : 0}`);
    if (q.search) {
      params.exact = q.search.toLowerCase();
      if ([...q.search].length >= 3) {
        // Trigram phrase: a case-insensitive substring match, answered from the index.
        params.fts = `"${q.search.replaceAll('"', '""')}"`;
        where.push(
          'rowid IN (SELECT rowid FROM lines_search WHERE lines_search MATCH @fts UNION SELECT rowid FROM lines WHERE id = @exact)',
        );
      } else {
        params.like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        where.push("(username LIKE @like ESCAPE '\\' OR id = @exact)");
      }
    }
    const clause = where.join(' AND ');
    const dir = q.orderType === 'desc' ? 'DESC' : 'ASC';
    const col = ORDER_COLUMNS[q.orderBy];
    const order = col === 'id' ? `id ${dir}` : `${col} ${dir}, id ${dir}`;
    if (where.length === 1) {
      // Unfiltered: the page follows an index and LIMIT stops early; the total is a cached count.
      // Deferred join: the inner query walks a covering index only; the table is read for the page alone.
      const rows = this.#s(
        `SELECT ${LIST_COLUMNS} FROM lines WHERE rowid IN
           (SELECT rowid FROM lines WHERE ${clause} ORDER BY ${order} LIMIT @limit OFFSET @offset)
         ORDER BY ${order}`,
      ).all({ ...params, limit: q.limit, offset: q.offset }) as LineRow[];
      return { total: this.#count(clause, params), rows };
    }
    // Filtered or searched: find every match once, in order; the total and each page are slices of it.
    const key = `${this.#generation}|${clause}|${order}|${JSON.stringify(params)}`;
    let matches = this.#matches.get(key);
    if (!matches) {
      matches = (
        this.#s(`SELECT rowid AS r FROM lines WHERE ${clause} ORDER BY ${order}`).all(params) as Array<{
          r: number;
        }>
      ).map((m) => m.r);
      if (this.#matches.size >= 64) this.#matches.clear();
      this.#matches.set(key, matches);
    }
    const page = matches.slice(q.offset, q.offset + q.limit);
    const rows = page.length
      ? (this.#s(
          `SELECT ${LIST_COLUMNS} FROM lines WHERE rowid IN (SELECT value FROM json_each(@page)) ORDER BY ${order}`,
        ).all({ page: JSON.stringify(page) }) as LineRow[])
      : [];
    return { total: matches.length, rows };
  }

  readonly #matches = new Map<string, number[]>();

  /** Bumped by every write to lines: cached totals of an older generation are never read. */
  #generation = 0;
  readonly #counts = new Map<string, number>();

  insertLine(row: LineRow, bouquets: readonly number[]): void {
    this.#generation++;
    this.#s(
      `INSERT INTO lines (id, account_id, username, password, label, enabled, connections, is_trial, exp_date,
        start_date, created_at, macaddress, parental_code, hostname)
       VALUES (@id, @account_id, @username, @password, @label, @enabled, @connections, @is_trial, @exp_date,
        @start_date, @created_at, @macaddress, @parental_code, @hostname)`,
    ).run(row);
    const link = this.#s('INSERT OR IGNORE INTO line_bouquets (line_id, bouquet_id) VALUES (?, ?)');
    for (const b of bouquets) link.run(row.id, b);
  }

  updateLine(
    id: string,
    fields: Partial<Pick<LineRow, 'exp_date' | 'start_date' | 'connections' | 'enabled'>>,
  ): void {
    this.#generation++;
    const sets = Object.keys(fields).map((k) => `${k} = @${k}`);
    this.#s(`UPDATE lines SET ${sets.join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  deleteLine(id: string): void {
    this.#generation++;
    this.#s('DELETE FROM lines WHERE id = ?').run(id);
  }

  /**
   * Checks and deducts in one statement: succeeds only when the balance covers `need` (cost and
   * min_balance). Must run inside the caller's transaction together with its ledger row.
   */
  charge(accountId: number, cost: number, need: number): number | null {
    const res = this.#s(
      'UPDATE accounts SET credits = credits - @cost WHERE id = @id AND credits >= @need',
    ).run({
      id: accountId,
      cost,
      need,
    });
    if (res.changes !== 1) return null;
    return this.account(accountId)!.credits;
  }

  addLedger(
    accountId: number,
    at: number,
    operation: string,
    lineId: string,
    amount: number,
    balanceAfter: number,
  ) {
    this.#s(
      'INSERT INTO ledger (account_id, at, operation, line_id, amount, balance_after) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(accountId, at, operation, lineId, amount, balanceAfter);
  }

  ledger(
    accountId: number,
  ): Array<{ operation: string; line_id: string; amount: number; balance_after: number }> {
    return this.#s(
      'SELECT operation, line_id, amount, balance_after FROM ledger WHERE account_id = ? ORDER BY id',
    ).all(accountId) as Array<{ operation: string; line_id: string; amount: number; balance_after: number }>;
  }
}

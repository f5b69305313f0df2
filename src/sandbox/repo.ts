import { createHash, timingSafeEqual } from 'node:crypto';
import type { ListLinesParams } from '../api/contract';
import type { Db, Statement } from './db';
import { LIST_ITEM_COLUMNS, listItemJson } from './line-json';
import { filterOf, LineLists, type ListTuning } from './lists';

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

/** Every SQL statement of the sandbox, prepared once. */
export class Repo {
  constructor(
    readonly db: Db,
    tuning?: ListTuning,
  ) {
    this.#lists = new LineLists(db, tuning);
  }

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
    return this.#lists.count(filterOf(accountId, { status: 'all', type: 'all' }, 0));
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

  /** One page of a list view and its total (see LineLists), each line as its list form's JSON. */
  list(accountId: number, q: ListLinesParams, nowMs: number): { total: number; lines: string[] } {
    const { total, rowids } = this.#lists.page(accountId, q, nowMs);
    if (!rowids.length) return { total, lines: [] };
    // Rows come back in rowid order, as arrays (no object per row); the page's order is the list's.
    const rows = this.db
      .prepareArrays(
        `SELECT rowid, ${LIST_ITEM_COLUMNS} FROM lines NOT INDEXED WHERE rowid IN (SELECT value FROM json_each(@page))`,
      )
      .all({ page: JSON.stringify(Array.from(rowids)) }) as Array<[number, ...unknown[]]>;
    const byRowid = new Map<number, string>();
    for (const row of rows) byRowid.set(row[0], listItemJson(row));
    // A row gone since the list was built (a write from outside this Repo) is left out.
    const lines: string[] = [];
    for (const r of Array.from(rowids)) {
      const json = byRowid.get(r);
      if (json !== undefined) lines.push(json);
    }
    return { total, lines };
  }

  /** Cached lists and counts; every write to lines drops them first. */
  readonly #lists: LineLists;

  insertLine(row: LineRow, bouquets: readonly number[]): void {
    this.#lists.invalidate();
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
    this.#lists.invalidate();
    const sets = Object.keys(fields).map((k) => `${k} = @${k}`);
    this.#s(`UPDATE lines SET ${sets.join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  deleteLine(id: string): void {
    this.#lists.invalidate();
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

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

/** A prepared statement as the repository uses it: rows come back as the row types it declares. */
export interface Statement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** Bytes the WAL file is cut back to after a checkpoint (SQLite keeps its largest size otherwise). */
const WAL_SIZE_LIMIT = 4 * 1024 * 1024;
/** How often the checkpointer looks for writes; a quiet tick after writes truncates the WAL. */
const CHECKPOINT_TICK_MS = 1000;
/** Under writes that never pause, the WAL is still truncated this often. */
const CHECKPOINT_BUSY_TICKS = 10;

/**
 * The sandbox's database: Node's built-in SQLite (no native build), with the one thing it lacks,
 * a transaction helper. Nested calls become savepoints, so a service step may run inside a seed.
 */
export class Db {
  #depth = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  constructor(readonly raw: DatabaseSync) {}

  prepare(sql: string): Statement {
    return this.raw.prepare(sql) as unknown as Statement;
  }
  readonly #arrays = new Map<string, Statement>();
  /** A statement prepared once whose rows come back as arrays (no object per row: lists of 100,000). */
  prepareArrays(sql: string): Statement {
    let st = this.#arrays.get(sql);
    if (!st) {
      const raw = this.raw.prepare(sql);
      raw.setReturnArrays(true);
      st = raw as unknown as Statement;
      this.#arrays.set(sql, st);
    }
    return st;
  }
  exec(sql: string): void {
    this.raw.exec(sql);
  }
  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    if (!this.raw.isOpen) return;
    try {
      if (this.#depth === 0) this.checkpoint();
    } finally {
      this.raw.close();
    }
  }
  /** Copies the WAL into the database and truncates it to zero bytes (a no-op in memory). */
  checkpoint(): void {
    this.raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
  /**
   * Keeps a file database's WAL small: SQLite's own checkpoints (every 1,000 pages) reuse the file
   * but never shrink it, so one large transaction (a seed) or a long burst leaves it at its largest.
   * A tick without new writes after some, or every few busy ticks, truncates it. The timer is
   * unref'd: it never keeps the process alive.
   */
  startCheckpoints(): void {
    const changes = this.raw.prepare('SELECT total_changes() AS n');
    let seen = Number((changes.get() as { n: number }).n);
    let dirty = 0;
    this.#timer = setInterval(() => {
      if (!this.raw.isOpen || this.#depth > 0) return;
      const n = Number((changes.get() as { n: number }).n);
      const wrote = n !== seen;
      seen = n;
      if (wrote) dirty++;
      if (dirty > 0 && (!wrote || dirty >= CHECKPOINT_BUSY_TICKS)) {
        try {
          this.checkpoint();
          dirty = 0;
        } catch {
          // Busy (another process reading the file): the next tick tries again.
        }
      }
    }, CHECKPOINT_TICK_MS);
    this.#timer.unref();
  }
  /** The value of a pragma that returns one (`user_version`, `journal_mode`…). */
  pragma(name: string): unknown {
    const row = this.raw.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
    return row ? Object.values(row)[0] : undefined;
  }
  /** Runs `fn` in a transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T {
    const sp = `sp${this.#depth}`;
    this.raw.exec(this.#depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${sp}`);
    this.#depth++;
    try {
      const out = fn();
      this.#depth--;
      this.raw.exec(this.#depth === 0 ? 'COMMIT' : `RELEASE ${sp}`);
      return out;
    } catch (err) {
      this.#depth--;
      this.raw.exec(this.#depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${sp}; RELEASE ${sp}`);
      throw err;
    }
  }
}

/** Raised when Node's SQLite cannot be loaded (a Node without `node:sqlite`). */
export class SandboxUnavailableError extends Error {}

/** Versioned migrations: index + 1 is the schema version. Never edit one that has shipped; append. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id              INTEGER PRIMARY KEY,
    email           TEXT NOT NULL UNIQUE,
    credits         INTEGER NOT NULL CHECK (credits >= 0),
    opening_credits INTEGER NOT NULL,
    hostname        TEXT NOT NULL,
    mag_portal_url  TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    key_hash   BLOB PRIMARY KEY,
    key        TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    label      TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE packages (
    id                            INTEGER PRIMARY KEY,
    package_name                  TEXT NOT NULL,
    duration                      INTEGER NOT NULL,
    is_trial                      INTEGER NOT NULL,
    credits_cost                  INTEGER NOT NULL,
    extra_connection_credits_cost INTEGER NOT NULL,
    min_balance                   INTEGER NOT NULL,
    UNIQUE (is_trial, duration)
  );
  CREATE TABLE bouquets (
    id    INTEGER PRIMARY KEY,
    kind  TEXT NOT NULL CHECK (kind IN ('channels', 'movies')),
    label TEXT NOT NULL
  );
  CREATE TABLE lines (
    id            TEXT PRIMARY KEY,
    account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    username      TEXT NOT NULL UNIQUE,
    password      TEXT NOT NULL,
    label         TEXT NOT NULL DEFAULT '',
    enabled       INTEGER NOT NULL,
    connections   INTEGER NOT NULL CHECK (connections BETWEEN 1 AND 6),
    is_trial      INTEGER NOT NULL,
    exp_date      INTEGER,
    start_date    INTEGER,
    created_at    INTEGER,
    macaddress    TEXT,
    parental_code TEXT,
    hostname      TEXT
  );
  CREATE INDEX lines_by_account_id ON lines (account_id, id);
  CREATE INDEX lines_by_account_username ON lines (account_id, username, id);
  CREATE INDEX lines_by_account_exp ON lines (account_id, exp_date, id);
  CREATE INDEX lines_by_account_enabled ON lines (account_id, enabled, id);
  CREATE TABLE line_bouquets (
    line_id    TEXT NOT NULL REFERENCES lines(id) ON DELETE CASCADE,
    bouquet_id INTEGER NOT NULL REFERENCES bouquets(id),
    PRIMARY KEY (line_id, bouquet_id)
  ) WITHOUT ROWID;
  CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,
    account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    at            INTEGER NOT NULL,
    operation     TEXT NOT NULL,
    line_id       TEXT NOT NULL,
    amount        INTEGER NOT NULL CHECK (amount > 0),
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0)
  );
  CREATE INDEX ledger_by_account ON ledger (account_id, id);
  `,
  // 2: covering indexes, one per list ordering, each holding every filter column, so a filtered or
  // searched page scans the index alone and reads the table only for the rows it returns.
  `
  DROP INDEX lines_by_account_id;
  DROP INDEX lines_by_account_username;
  DROP INDEX lines_by_account_exp;
  DROP INDEX lines_by_account_enabled;
  CREATE INDEX lines_list_id ON lines (account_id, id, enabled, is_trial, exp_date, username);
  CREATE INDEX lines_list_username ON lines (account_id, username, id, enabled, is_trial, exp_date);
  CREATE INDEX lines_list_exp ON lines (account_id, exp_date, id, enabled, is_trial, username);
  CREATE INDEX lines_list_enabled ON lines (account_id, enabled, id, is_trial, exp_date, username);
  `,
  // 3: substring search on usernames through a trigram index (kept in step by triggers); LIKE over
  // 100,000 usernames costs ~30 ms, the trigram lookup a small fraction of that.
  `
  CREATE VIRTUAL TABLE lines_search USING fts5(username, content='lines', content_rowid='rowid', tokenize='trigram');
  INSERT INTO lines_search(lines_search) VALUES ('rebuild');
  CREATE TRIGGER lines_search_insert AFTER INSERT ON lines BEGIN
    INSERT INTO lines_search(rowid, username) VALUES (new.rowid, new.username);
  END;
  CREATE TRIGGER lines_search_delete AFTER DELETE ON lines BEGIN
    INSERT INTO lines_search(lines_search, rowid, username) VALUES ('delete', old.rowid, old.username);
  END;
  CREATE TRIGGER lines_search_update AFTER UPDATE OF username ON lines BEGIN
    INSERT INTO lines_search(lines_search, rowid, username) VALUES ('delete', old.rowid, old.username);
    INSERT INTO lines_search(rowid, username) VALUES (new.rowid, new.username);
  END;
  `,
];

export async function openDb(path: string): Promise<Db> {
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await import('node:sqlite');
  } catch (err) {
    throw new SandboxUnavailableError(
      `The embedded sandbox needs Node 26 or later (node:sqlite: ${(err as Error).message.split('\n')[0]}). ` +
        'Run it with `npm start`, or point linedesk at a service with LINEDESK_BASE_URL and LINEDESK_API_KEY.',
    );
  }
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Unknown named parameters allowed: one params object serves a query and its count (as before).
  const db = new Db(
    new sqlite.DatabaseSync(path, {
      enableForeignKeyConstraints: true,
      timeout: 2000,
      allowUnknownNamedParameters: true,
    }),
  );
  db.exec(
    `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT};`,
  );
  migrate(db);
  if (path !== ':memory:') db.startCheckpoints();
  return db;
}

export function migrate(db: Db): void {
  const current = Number(db.pragma('user_version'));
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    });
  }
}

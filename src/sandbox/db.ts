import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

export type Db = BetterSqlite3.Database;

/** Raised when better-sqlite3 is not installed or did not build on this machine. */
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
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
  } catch (err) {
    throw new SandboxUnavailableError(
      `The embedded sandbox is unavailable: better-sqlite3 could not be loaded (${(err as Error).message.split('\n')[0]}). ` +
        'Reinstall with a C++ toolchain (npm rebuild better-sqlite3), or point linedesk at a service with LINEDESK_BASE_URL and LINEDESK_API_KEY.',
    );
  }
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 2000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

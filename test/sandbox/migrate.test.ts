import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { sandbox } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';

// A file database written by an older linedesk opens: its schema is migrated (user_version), and
// the list's search, which reads the newer trigram index, answers as a plain LIKE does.

describe('an older file database', () => {
  it('is migrated when opened, and searches find what LIKE finds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-migrate-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const first = await sandbox({ db, lines: 300 });
    await first.sb.close();
    // Back to schema 2: before the trigram index (migration 3 adds it and its triggers).
    const old = new DatabaseSync(db);
    old.exec(`DROP TRIGGER lines_search_insert; DROP TRIGGER lines_search_delete;
      DROP TRIGGER lines_search_update; DROP TABLE lines_search; PRAGMA user_version = 2;`);
    old.close();

    const { sb, client } = await sandbox({ db });
    expect(sb.repo.db.pragma('user_version')).toBe(3);
    const term = (await client.listLines({ limit: 1 })).lines[0]!.username!.slice(1, 4).toLowerCase();
    await client.createLine({ duration: 1, username: `Migrated-${term.toUpperCase()}-0001` });
    const like = sb.repo.db
      .prepare('SELECT id FROM lines WHERE account_id = ? AND username LIKE ? ORDER BY username, id')
      .all(sb.repo.accounts()[0]!.id, `%${term}%`) as Array<{ id: string }>;
    expect(like.length).toBeGreaterThan(1);
    const got = await client.listLines({ search: term, orderBy: 'username', limit: 100 });
    expect(got.lines.map((l) => l.id)).toEqual(like.map((r) => r.id).slice(0, 100));
    expect(got.totalHits).toBe(like.length);
  });
});

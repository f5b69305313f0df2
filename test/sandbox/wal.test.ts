import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

// A file database's WAL keeps the size of its largest burst unless truncated: a 100,000-line seed
// (one transaction) left 129 MB behind. The sandbox truncates it once writes pause, and at close.

const walSize = (db: string) => (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0);
const BOUND = 256 * 1024;

describe('file database WAL', () => {
  it('is truncated after many writes once they pause; the data is intact and reopens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-wal-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const { sb, client } = await sandbox({ db, lines: 2000, credits: 1e6 });
    let peak = walSize(db);
    const created: string[] = [];
    for (let i = 0; i < 300; i++) {
      created.push((await client.createLine({ duration: 1 })).line!.id);
      peak = Math.max(peak, walSize(db));
    }
    for (const id of created.slice(0, 100)) await client.extendLine({ id, duration: 1 });
    expect(peak).toBeGreaterThan(BOUND); // the writes did fill it
    await until(() => walSize(db) <= BOUND);

    expect((await client.listLines({ limit: 1 })).totalHits).toBe(2300);
    expect(sb.repo.db.pragma('integrity_check')).toBe('ok');
    await sb.close();
    expect(walSize(db)).toBe(0);
    const again = await startSandbox({ db, demoKey: DEMO_KEY });
    try {
      expect(again.repo.linesCount(again.repo.accounts()[0]!.id)).toBe(2300);
      expect(again.repo.findLine(again.repo.accounts()[0]!.id, { id: created[0]! })?.id).toBe(created[0]);
    } finally {
      await again.close();
    }
  }, 60_000);
});

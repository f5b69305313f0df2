/**
 * The drift check's memory (app/balance-file.ts): a balances file that can be read but not written
 * is named, never fatal, and a drift is still said once — not again at every read judged from the
 * old balance the file still holds.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { balancesPath, fileBalances } from '../../src/app/balance-file';
import { fileJournal } from '../../src/app/journal-file';
import { memoryBalances, readAccountWatched } from '../../src/services/balance-watch';

describe('a balances file that cannot be written', () => {
  it('is named, and a drift is said once, not at every read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linedesk-balances-'));
    const path = balancesPath(dir);
    let credits = 100;
    let clock = Date.parse('2026-11-20T12:00:00Z');
    const client = { me: async () => ({ credits }) as never };
    const watch = { balances: fileBalances(path), targetId: 'acct', journal: null, now: () => clock };
    expect((await readAccountWatched(client, watch)).drift?.verdict.kind).toBe('first');
    // From here the file cannot be replaced (its temporary file's name is taken by a directory;
    // permissions do not stop root), though it still reads.
    mkdirSync(`${path}.${process.pid}.tmp`);
    writeFileSync(join(`${path}.${process.pid}.tmp`, 'x'), '');
    credits = 60;
    clock += 60_000;
    const moved = (await readAccountWatched(client, watch)).drift;
    expect(moved?.verdict).toMatchObject({ kind: 'drift', difference: -40 });
    expect(moved?.problem).toContain(path);
    clock += 60_000;
    const again = (await readAccountWatched(client, watch)).drift;
    expect(again?.verdict.kind).toBe('steady');
    expect(again?.problem).toContain('could not be written');
  });
});

describe('a journal that cannot be read whole', () => {
  it('is named, and the fall it may explain is not called drift', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linedesk-journal-'));
    const file = join(dir, 'journal.jsonl');
    const clock = Date.parse('2026-11-20T12:00:00Z');
    const balances = memoryBalances();
    balances.seen.set('acct', { balance: 100, at: clock - 60_000 });
    const client = { me: async () => ({ credits: 95 }) as never };
    const watch = { balances, targetId: 'acct', journal: fileJournal(file), now: () => clock };
    // A directory in its place: it reads as no entry at all (the journal screen names it).
    mkdirSync(file);
    const unread = (await readAccountWatched(client, watch)).drift;
    expect(unread?.verdict.kind).toBe('unsure');
    expect(unread?.problem).toContain(file);
    expect(balances.seen.get('acct')?.balance).toBe(100);
  });
});

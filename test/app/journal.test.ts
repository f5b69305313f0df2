import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileJournal } from '../../src/app/journal-file';
import { type JournalEntry, journalTotals, toCsv } from '../../src/services/changes/journal';

const entry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  time: '2026-11-22T10:00:00.000Z',
  target: 'http://127.0.0.1:7411',
  operation: 'extend',
  lineId: 'l1',
  username: 'someuser0001',
  quotedCost: 3,
  estimate: true,
  deducedCredits: 3,
  newBalance: 97,
  outcome: 'applied',
  ...over,
});

describe('journal', () => {
  it('a journal that cannot be read (a directory in its place) is named, never thrown', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-journal-'));
    const file = join(dir, 'journal.jsonl');
    mkdirSync(file);
    const j = fileJournal(file);
    expect(j.read()).toEqual([]);
    expect(j.skipped?.().join(' ')).toMatch(/journal\.jsonl could not be read \(EISDIR\)/);
  });

  it('appends JSONL (0600), reads it back, survives a torn last line, exports CSV', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-journal-'));
    const file = join(dir, 'journal.jsonl');
    const j = fileJournal(file);
    j.append(entry());
    j.append(entry({ operation: 'create', deducedCredits: 5 }));
    appendFileSync(file, '{"time":"2026-11-22T1'); // a crash mid-write
    expect(j.read()).toHaveLength(2);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const csv = readFileSync(j.exportCsv(), 'utf8');
    expect(csv.split('\n')[0]).toBe(
      'opId,time,target,operation,lineId,username,quotedCost,estimate,deducedCredits,newBalance,charge,outcome,detail,service,months,connectionsBefore,connectionsAfter,expiryBefore,expiryAfter',
    );
    expect(csv.trim().split('\n')).toHaveLength(3);
  });

  it('CSV cells are quoted, and a leading = + - @ cannot become a spreadsheet formula', () => {
    const csv = toCsv([entry({ username: '=HYPERLINK("x")', detail: 'a, "b"\nc' })]);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toContain('"a, ""b""\nc"');
  });

  it('totals per day and operation', () => {
    const t = journalTotals([
      entry(),
      entry({ deducedCredits: 2 }),
      entry({ operation: 'delete', deducedCredits: null }),
      entry({ time: '2026-11-21T09:00:00Z' }),
    ]);
    expect(t[0]).toMatchObject({ day: '2026-11-22', operation: 'delete', count: 1, credits: 0 });
    expect(t[1]).toMatchObject({ day: '2026-11-22', operation: 'extend', count: 2, credits: 5 });
    expect(t[2]).toMatchObject({ day: '2026-11-21', operation: 'extend', count: 1 });
  });
});

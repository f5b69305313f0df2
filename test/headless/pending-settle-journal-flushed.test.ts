/**
 * `linedesk pending --settle` says "not recorded in the journal" (journal_unwritten) from what is on
 * disk after the journal's last try, never from its first alone: the service tries a refused entry
 * again when it shuts down (JournalWriter.flush) and then ends the job (endJournaled). An entry taken
 * then is said as recorded (exit 0); one refused then too is said as not recorded (exit 1), and no
 * later try of the command writes it behind the settle's words.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JournalEntry } from '../../src/services/changes/journal';
import { unknownExtend } from '../helpers/unknown-extend';

/** The journal refuses the next N entries settled by hand. */
const disk = vi.hoisted(() => ({ refuse: 0 }));

vi.mock('../../src/app/journal-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/journal-file')>();
  return {
    ...real,
    fileJournal: (...args: Parameters<typeof real.fileJournal>) => {
      const journal = real.fileJournal(...args);
      return {
        ...journal,
        append: (entry: JournalEntry) => {
          if (disk.refuse > 0 && entry.settledByHand) {
            disk.refuse--;
            throw Object.assign(new Error(`ENOSPC: no space left on device, open '${args[0]}'`), {
              code: 'ENOSPC',
              path: args[0],
            });
          }
          return journal.append(entry);
        },
      };
    },
  };
});

const settledEntries = (data: string) =>
  readFileSync(join(data, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JournalEntry)
    .filter((e) => e.settledByHand);

describe('pending --settle whose journal entry is written at the command end', () => {
  it('never says "not recorded in the journal" of an entry the journal has once the command ends', async () => {
    const { line, data, file, settle } = await unknownExtend();
    disk.refuse = 1; // the first try only: the shutdown's flush writes it
    const settled = await settle('not-applied');
    disk.refuse = 0;
    // What is on disk once the command ended (nothing run since): the entry is in the journal, the job ended.
    expect(settledEntries(data)).toEqual([
      expect.objectContaining({ username: line.username, outcome: 'not applied', settledByHand: true }),
    ]);
    expect(existsSync(file)).toBe(false); // the job ended (its file kept as settled)
    // What the settle said must match it.
    expect(settled.stderr).not.toMatch(/not recorded in the journal/);
    expect(settled.code).toBe(0);
  }, 30_000);

  it('says "not recorded" only of an entry no later try of the command writes', async () => {
    const { data, file, settle } = await unknownExtend();
    disk.refuse = 2; // the first try and the settle's last one; a third would be written
    const settled = await settle('not-applied');
    const left = disk.refuse;
    disk.refuse = 0;
    expect(left).toBe(0);
    expect(settled.stderr).toMatch(/not recorded in the journal/);
    expect(settled.code).toBe(1);
    // What it said is what is on disk: no entry, the job kept for it.
    expect(settledEntries(data)).toEqual([]);
    expect(existsSync(file)).toBe(true);
  }, 30_000);
});

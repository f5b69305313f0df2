/**
 * `linedesk pending --settle` when the journal refuses the verdict's entry: never "recorded in the
 * journal". The intent log keeps the verdict (the line is free) and the job until the entry is
 * written, which a later run does from there once the journal can be written; the settle says so and
 * exits 1 (`journal_unwritten`). When the intent log refuses the verdict too, it says the journal
 * lacks it as well; a verdict of "applied" the intent log refused (the service marks only a line it
 * would offer to retry `keptOnDisk`) is never called kept either.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BulkLine } from '../../src/domain/bulk';
import type { JournalEntry } from '../../src/services/changes/journal';
import { unknownExtend } from '../helpers/unknown-extend';

/** `journal`: the journal's disk refuses an entry settled by hand; `intents`: so does the intent log. */
const disk = vi.hoisted(() => ({ journal: false, intents: false }));

const refused = (code: string, text: string, path: string) =>
  Object.assign(new Error(`${code}: ${text}, open '${path}'`), { code, path });

vi.mock('../../src/app/journal-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/journal-file')>();
  return {
    ...real,
    fileJournal: (...args: Parameters<typeof real.fileJournal>) => {
      const journal = real.fileJournal(...args);
      return {
        ...journal,
        append: (entry: JournalEntry) => {
          if (disk.journal && entry.settledByHand)
            throw refused('ENOSPC', 'no space left on device', args[0]);
          return journal.append(entry);
        },
      };
    },
  };
});

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const log = real.fileIntentLog(...args);
      return {
        ...log,
        line: (jobId: string, l: BulkLine) => {
          if (disk.intents && l.settledAfterUnknown === 'by hand')
            throw refused('ENOSPC', 'no space left on device', '/intents/job.jsonl');
          return log.line(jobId, l);
        },
        end: (jobId: string) => {
          if (disk.intents) throw refused('EIO', 'i/o error', '/intents/job.jsonl');
          return log.end(jobId);
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

describe('linedesk pending --settle when the journal refuses its entry', () => {
  it('says the verdict is kept in the intent log but not in the journal, exit 1; a later run writes it', async () => {
    const { line, run, data, settle } = await unknownExtend();
    disk.journal = true;
    let settled: Awaited<ReturnType<typeof run>>;
    try {
      settled = await settle('not-applied');
    } finally {
      disk.journal = false;
    }
    expect(settled.stderr).not.toMatch(/recorded in the journal as settled/);
    expect(settled.stderr).toContain(
      `extend ${line.username}: settled by you as not applied, kept in the intent log but not recorded in the journal: ${join(data, 'journal.jsonl')} could not be written.`,
    );
    // What is true of the line, and what to do.
    expect(settled.stderr).toMatch(/The line is free for a new change/);
    expect(settled.stderr).toMatch(
      /fix the disk first .*, then run linedesk pending .*: it writes the entry/,
    );
    expect(settled.code).toBe(1);
    expect(settledEntries(data)).toEqual([]);
    // What it said is what is true: once the journal can be written, the next run writes the entry
    // from the intent log, and nothing is open; the line is free (a new change of it is quoted, exit 4).
    const listed = await run('pending', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).open).toEqual([]);
    expect(settledEntries(data)).toEqual([
      expect.objectContaining({ username: line.username, outcome: 'not applied', settledByHand: true }),
    ]);
    expect((await run('extend', line.username)).code).toBe(4);
  }, 30_000);

  it('gives --json the error code journal_unwritten', async () => {
    const { line, run } = await unknownExtend();
    disk.journal = true;
    try {
      const settled = await run(
        'pending',
        '--settle',
        line.username,
        '--as',
        'applied',
        '--confirm',
        line.username,
        '--json',
      );
      expect(settled.code).toBe(1);
      const error = settled.stderr
        .split('\n')
        .filter((l) => l.startsWith('{"error"'))
        .map((l) => JSON.parse(l).error);
      expect(error).toEqual([expect.objectContaining({ code: 'journal_unwritten', exit: 1 })]);
    } finally {
      disk.journal = false;
    }
  }, 30_000);

  it('says the journal lacks it too when the intent log refuses the verdict as well', async () => {
    const { run, settle } = await unknownExtend();
    disk.journal = true;
    disk.intents = true;
    let settled: Awaited<ReturnType<typeof run>>;
    try {
      settled = await settle('applied');
    } finally {
      disk.journal = false;
      disk.intents = false;
    }
    expect(settled.stderr).toMatch(
      /is not kept in the intent log(?: \(the disk is full: .*\))?: .* still has the change open \(nor is it in the journal\)/,
    );
    // The disk's refusal is said (by the settle, or by the service's notice before it).
    expect(settled.stderr).toMatch(/(the disk is full|intent log could not be written)/);
    expect(settled.stderr).not.toMatch(/recorded in the journal/);
    expect(settled.code).toBe(1);
  }, 30_000);

  it('never says a verdict of applied is kept when the intent log refused it (the journal has it), exit 1', async () => {
    const { line, run, settle } = await unknownExtend();
    disk.intents = true;
    let settled: Awaited<ReturnType<typeof run>>;
    try {
      settled = await settle('applied');
    } finally {
      disk.intents = false;
    }
    expect(settled.stderr).toMatch(
      /your verdict \(applied\) is not kept in the intent log(?: \(the disk is full: .*\))?: .* still has the change open \(the journal lists it as settled by you\), so the line is not free/,
    );
    expect(settled.stderr).toMatch(/(the disk is full|intent log could not be written)/);
    expect(settled.stderr).toMatch(/settle it again/);
    expect(settled.code).toBe(1);
    // What it said is what is true: the intent log still has it open, and pending lists it.
    const listed = await run('pending', '--json');
    expect(listed.code).toBe(3);
    expect(JSON.parse(listed.stdout).open).toEqual([
      expect.objectContaining({ username: line.username, state: 'unknown' }),
    ]);
  }, 30_000);
});

/**
 * `linedesk pending --settle` on a disk that refuses the settle's record and the job's end: the intent
 * log still has the line's change open (the next start checks it again, and holds the line until
 * then), so the command never says the line is free for a new change; it says what is true (the
 * verdict is not kept in the intent log) and what to do (fix the disk, then settle it again), exit 1.
 */
import { describe, expect, it, vi } from 'vitest';
import type { BulkLine } from '../../src/domain/bulk';
import { unknownExtend } from '../helpers/unknown-extend';

/** `refuse`: the disk refuses a record of a line settled by hand, and the job's end. */
const disk = vi.hoisted(() => ({ refuse: false }));

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  const refused = (code: string, text: string) =>
    Object.assign(new Error(`${code}: ${text}`), { code, path: '/intents/job.jsonl' });
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const log = real.fileIntentLog(...args);
      return {
        ...log,
        line: (jobId: string, l: BulkLine) => {
          if (disk.refuse && l.settledAfterUnknown === 'by hand')
            throw refused('ENOSPC', 'no space left on device');
          return log.line(jobId, l);
        },
        end: (jobId: string) => {
          if (disk.refuse) throw refused('EIO', 'i/o error');
          return log.end(jobId);
        },
      };
    },
  };
});

describe('linedesk pending --settle on a disk that refuses it', () => {
  it('never says the line is free: the verdict is not kept, the next start checks it again; exit 1', async () => {
    const { line, run, settle } = await unknownExtend();
    disk.refuse = true;
    let settled: Awaited<ReturnType<typeof run>>;
    try {
      settled = await settle('not-applied');
    } finally {
      disk.refuse = false;
    }
    expect(settled.stderr).not.toMatch(/is free for a new change/);
    expect(settled.stderr).toMatch(/not free for a new change/);
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

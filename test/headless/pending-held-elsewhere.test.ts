/**
 * `linedesk pending` lists a job another live linedesk holds as held (from the run's one read of the
 * log: the recovery left it to its holder), and not a job that ended before it: what it lists is
 * what the run read, as the recovery left it. A settle of its line says it is held (exit 3), as the
 * listing does.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { unknownExtend } from '../helpers/unknown-extend';

describe('linedesk pending of a job another linedesk holds', () => {
  it('lists its line as held for it, exit 3; nothing once its holder settled it', async () => {
    const { line, run, file, jobId } = await unknownExtend();
    const dir = join(file, '..');
    // Another linedesk, alive (this test's parent process), takes the job.
    const other = fileIntentLog(dir, { pid: process.ppid, start: null });
    expect(other.claim(jobId)).toBe(true);

    const held = await run('pending', '--json');
    expect(held.code).toBe(3);
    const rows = (JSON.parse(held.stdout) as { open: { username: string; state: string; detail: string }[] })
      .open;
    expect(rows).toEqual([
      expect.objectContaining({
        username: line.username,
        state: 'held',
        detail: expect.stringMatching(/^held for /),
      }),
    ]);

    // Its holder ends it: nothing open is listed.
    other.end(jobId);
    const after = await run('pending', '--json');
    expect(JSON.parse(after.stdout)).toMatchObject({ open: [] });
    expect(after.code).toBe(0);
  }, 30_000);

  it('a settle of its line says it is held (exit 3: try again when it ends), never "No open outcome"', async () => {
    const { file, jobId, settle } = await unknownExtend();
    const other = fileIntentLog(join(file, '..'), { pid: process.ppid, start: null });
    expect(other.claim(jobId)).toBe(true);
    const out = await settle('applied');
    expect(out.stderr).not.toMatch(/No open outcome/);
    expect(out.stderr).toMatch(/is held by .*try again when it ends/);
    expect(out.code).toBe(3);
    // Still the other's: the settle took nothing from it.
    expect(fileIntentLog(join(file, '..')).heldElsewhere(jobId)).not.toBeNull();
  }, 30_000);
});

/**
 * `linedesk pending` of a job whose owner file is there but cannot be read (here a directory in its
 * place: unreadable even as root): the job is held, never taken (its owner may be a live linedesk no
 * one can tell), and the file is named with what to do.
 */
import { mkdirSync, rmdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unknownExtend } from '../helpers/unknown-extend';

describe('linedesk pending of a job whose owner file cannot be read', () => {
  it('lists its line as held, naming the owner file and what to do (exit 3); once readable, checked', async () => {
    const { line, run, file } = await unknownExtend();
    mkdirSync(`${file}.owner`);
    const held = await run('pending', '--json');
    expect(held.code).toBe(3);
    const rows = (JSON.parse(held.stdout) as { open: { username: string; state: string; detail: string }[] })
      .open;
    expect(rows).toEqual([
      expect.objectContaining({
        username: line.username,
        state: 'held',
        detail: `held for another linedesk, maybe (its owner file ${file}.owner cannot be read: it is a directory (EISDIR); make it readable, or remove it once no other linedesk runs)`,
      }),
    ]);
    // Nothing took it: the directory is still there, no owner file was made in its place.
    rmdirSync(`${file}.owner`);
    const after = await run('pending', '--json');
    expect(JSON.parse(after.stdout).open).toEqual([expect.objectContaining({ username: line.username })]);
    expect(JSON.parse(after.stdout).open[0].state).not.toBe('held');
  }, 30_000);
});

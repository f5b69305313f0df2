/**
 * Issue 23, item 5: right after a kill -9, the first restart took the killed linedesk for a live one
 * ("another linedesk (process N) is making an earlier extend") and offered no resume. A killed process
 * stays in the process table, answering signal 0 with its own start time, until its parent reaps it:
 * a zombie is gone, whatever its pid and start time say.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, startTimeOf, thisProcess } from '../../src/app/process-owner';

const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  while (children.length) children.pop()!.kill('SIGKILL');
});

const stateOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
};

describe.skipIf(process.platform !== 'linux')('a process that made a job', () => {
  it('killed and not yet reaped by its parent (a zombie) is gone at once', () => {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    const pid = child.pid!;
    const owner = { pid, start: startTimeOf(pid) };
    expect(owner.start).not.toBeNull();
    expect(isAlive(owner)).toBe(true);
    process.kill(pid, 'SIGKILL');
    // The event loop cannot reap it while this runs: it stays a zombie, as it does under a parent
    // that is busy or slow to wait for it.
    const until = Date.now() + 5_000;
    while (stateOf(pid) !== 'Z' && Date.now() < until) {
      // wait for the kernel to finish the kill
    }
    expect(stateOf(pid)).toBe('Z');
    expect(startTimeOf(pid)).toBe(owner.start); // the pid and the start time alone say "alive"
    expect(isAlive(owner)).toBe(false);
  });

  it('a live process is alive; the same pid with another start time is not', () => {
    const me = thisProcess();
    expect(isAlive(me)).toBe(true);
    expect(isAlive({ pid: me.pid, start: `${me.start}1` })).toBe(false);
  });
});

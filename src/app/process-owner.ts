/**
 * Processes as the ownership of an open change needs them (services/changes/ownership.ts decides;
 * this reads the system): this process, and whether another still runs.
 */
import { readFileSync } from 'node:fs';
import type { Owner, Processes } from '../services/changes/ownership';

export type { Owner };

/** Fields 3… of /proc/PID/stat (state first), or null where there is no /proc or no such process. */
function statOf(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

export function startTimeOf(pid: number): string | null {
  return statOf(pid)?.[19] ?? null;
}

export const thisProcess = (): Owner => ({ pid: process.pid, start: startTimeOf(process.pid) });

/**
 * Still running: the pid answers signal 0, it is not a zombie (killed, not yet reaped by its parent:
 * it keeps its pid and start time, and answers signal 0, until then), and, where known, it started
 * when the owner did.
 */
export function isAlive(o: Owner): boolean {
  try {
    process.kill(o.pid, 0);
  } catch (err) {
    // EPERM: it exists, under another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = statOf(o.pid);
  if (stat && (stat[0] === 'Z' || stat[0] === 'X')) return false;
  const start = stat?.[19] ?? null;
  return o.start === null || start === null || start === o.start;
}

/** The system's processes, as seen by `self` (this process unless a test names another). */
export const systemProcesses = (self: Owner = thisProcess()): Processes => ({ self, isAlive });

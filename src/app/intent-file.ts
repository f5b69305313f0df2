import {
  appendFileSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { BulkJob, BulkLine } from '../domain/bulk';
import type { IntentLog } from '../store/intent-log';
import { isAlive, isSame, type Owner, thisProcess } from './process-owner';

/**
 * The intent log on disk: a directory per service, one JSONL file per job — the job first, then one
 * record per change of a line's state, appended synchronously before the request it announces is
 * sent. Replaying a file gives the job as it was when the process stopped; a torn last line (a crash
 * mid-write) is ignored. A settled job's file is removed (the journal keeps its history).
 *
 * Beside each job, `<job>.owner` names the process making or checking it, while it does: another
 * linedesk (a second cron run, a second terminal) leaves the job alone while that process lives and
 * holds it, and takes it over, exclusively, once it is released or its maker is gone.
 */
export function fileIntentLog(dir: string, self: Owner = thisProcess()): IntentLog {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fileOf = (jobId: string) => join(dir, `${jobId.replace(/[^A-Za-z0-9-]/g, '_')}.jsonl`);
  const ownerOf = (jobId: string): Owner | null => {
    try {
      const o = JSON.parse(readFileSync(`${fileOf(jobId)}.owner`, 'utf8')) as Owner;
      return typeof o.pid === 'number' ? { pid: o.pid, start: o.start ?? null } : null;
    } catch {
      return null;
    }
  };
  const ownerFile = (jobId: string) => `${fileOf(jobId)}.owner`;
  const heldElsewhere = (jobId: string) => {
    const o = ownerOf(jobId);
    return o && !isSame(o, self) && isAlive(o) ? `another linedesk (process ${o.pid})` : null;
  };
  /** Exclusive: of two processes taking over the same job at once, exactly one wins. */
  const claim = (jobId: string): boolean => {
    const file = ownerFile(jobId);
    const o = ownerOf(jobId);
    if (o && isSame(o, self)) return true;
    if (o && isAlive(o)) return false;
    if (o || existsSync(file)) {
      // The maker is gone (or its file unreadable): moved aside first, which only one taker can do.
      const aside = `${file}.${self.pid}.stale`;
      try {
        renameSync(file, aside);
      } catch {
        return false;
      }
      rmSync(aside, { force: true });
    }
    try {
      writeFileSync(file, JSON.stringify(self), { mode: 0o600, flag: 'wx' });
      return true;
    } catch {
      return false;
    }
  };
  return {
    begin(job) {
      const file = fileOf(job.id);
      // The owner first: a job is never on disk without its maker named beside it. A job another
      // live process holds is not written (and so, by the engine's rule, nothing is sent).
      if (!claim(job.id))
        throw new Error(`${heldElsewhere(job.id) ?? 'another linedesk'} is making this job`);
      // Written whole, then renamed: a half-written header is impossible.
      writeFileSync(`${file}.tmp`, `${JSON.stringify({ job })}\n`, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
    closeBalanceWindow(jobId) {
      // Never creates the file: a job ended meanwhile stays ended.
      let fd: number;
      try {
        fd = openSync(fileOf(jobId), constants.O_WRONLY | constants.O_APPEND);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      try {
        writeSync(fd, `${JSON.stringify({ window: 'closed' })}\n`);
      } finally {
        closeSync(fd);
      }
    },
    heldElsewhere,
    claim,
    release(jobId) {
      const o = ownerOf(jobId);
      if (o && isSame(o, self)) rmSync(ownerFile(jobId), { force: true });
    },
    line(jobId, line) {
      appendFileSync(fileOf(jobId), `${JSON.stringify({ line })}\n`, { mode: 0o600 });
    },
    end(jobId) {
      rmSync(fileOf(jobId), { force: true });
      rmSync(ownerFile(jobId), { force: true });
    },
    open() {
      let names: string[];
      try {
        names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
      } catch {
        return [];
      }
      return names
        .map((n) => replay(readFileSync(join(dir, n), 'utf8')))
        .filter((j): j is BulkJob => j !== null)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
  };
}

function replay(text: string): BulkJob | null {
  let job: BulkJob | null = null;
  let lines: BulkLine[] = [];
  for (const row of text.split('\n')) {
    if (!row.trim()) continue;
    let rec: { job?: BulkJob; line?: BulkLine; window?: 'closed' };
    try {
      rec = JSON.parse(row);
    } catch {
      continue;
    }
    if (rec.job) {
      job = rec.job;
      lines = [...rec.job.lines];
    }
    if (rec.window === 'closed' && job) job = { ...job, balanceBefore: null };
    const l = rec.line;
    if (l && job) {
      // A created line is renamed from `new:<username>` to its real id once the server names it.
      const i = lines.findIndex(
        (x) => x.id === l.id || (x.id.startsWith('new:') && x.username === l.username),
      );
      if (i >= 0) lines[i] = l;
    }
  }
  return job ? { ...job, lines } : null;
}

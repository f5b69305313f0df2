import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
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
 * Beside each job, `<job>.owner` names the process making its changes: another linedesk (a second
 * cron run, a second terminal) leaves a job alone while that process lives, and takes it over, to
 * check it, once it is gone.
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
  const own = (jobId: string) => {
    const file = `${fileOf(jobId)}.owner`;
    writeFileSync(`${file}.tmp`, JSON.stringify(self), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  };
  const heldElsewhere = (jobId: string) => {
    const o = ownerOf(jobId);
    return o && !isSame(o, self) && isAlive(o) ? `another linedesk (process ${o.pid})` : null;
  };
  return {
    begin(job) {
      const file = fileOf(job.id);
      // Written whole, then renamed: a half-written header is impossible. The owner first: a job
      // is never on disk without a live process named beside it.
      own(job.id);
      writeFileSync(`${file}.tmp`, `${JSON.stringify({ job })}\n`, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
    closeBalanceWindow(jobId) {
      appendFileSync(fileOf(jobId), `${JSON.stringify({ window: 'closed' })}\n`, { mode: 0o600 });
    },
    heldElsewhere,
    claim(jobId) {
      if (heldElsewhere(jobId)) return false;
      own(jobId);
      return true;
    },
    line(jobId, line) {
      appendFileSync(fileOf(jobId), `${JSON.stringify({ line })}\n`, { mode: 0o600 });
    },
    end(jobId) {
      rmSync(fileOf(jobId), { force: true });
      rmSync(`${fileOf(jobId)}.owner`, { force: true });
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

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

/**
 * The intent log on disk: a directory per service, one JSONL file per job — the job first, then one
 * record per change of a line's state, appended synchronously before the request it announces is
 * sent. Replaying a file gives the job as it was when the process stopped; a torn last line (a crash
 * mid-write) is ignored. A settled job's file is removed (the journal keeps its history).
 */
export function fileIntentLog(dir: string): IntentLog {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fileOf = (jobId: string) => join(dir, `${jobId.replace(/[^A-Za-z0-9-]/g, '_')}.jsonl`);
  return {
    begin(job) {
      const file = fileOf(job.id);
      // Written whole, then renamed: a half-written header is impossible.
      writeFileSync(`${file}.tmp`, `${JSON.stringify({ job })}\n`, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
    line(jobId, line) {
      appendFileSync(fileOf(jobId), `${JSON.stringify({ line })}\n`, { mode: 0o600 });
    },
    end(jobId) {
      rmSync(fileOf(jobId), { force: true });
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
    let rec: { job?: BulkJob; line?: BulkLine };
    try {
      rec = JSON.parse(row);
    } catch {
      continue;
    }
    if (rec.job) {
      job = rec.job;
      lines = [...rec.job.lines];
    }
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

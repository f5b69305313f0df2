import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BulkJob, BulkLine } from '../domain/bulk';
import type { JobLog } from '../store/job-log';

/**
 * A bulk job on disk: one JSONL file, the job first, then one line per change of a line's state,
 * appended synchronously before the request it announces is sent. Replaying it gives the job as it
 * was when the process stopped; a torn last line (a crash mid-write) is ignored.
 */
export function fileJobLog(file: string): JobLog {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const write = (record: unknown) => appendFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  return {
    begin(job) {
      // A fresh file per job; written whole, then renamed, so a half-written header is impossible.
      writeFileSync(`${file}.tmp`, `${JSON.stringify({ job })}\n`, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
    line(line) {
      write({ line });
    },
    end() {
      write({ end: true });
    },
    load() {
      if (!existsSync(file)) return null;
      let job: BulkJob | null = null;
      const lines = new Map<string, BulkLine>();
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        if (!text.trim()) continue;
        let rec: { job?: BulkJob; line?: BulkLine; end?: boolean };
        try {
          rec = JSON.parse(text);
        } catch {
          continue;
        }
        if (rec.job) job = rec.job;
        if (rec.line) lines.set(rec.line.id, rec.line);
        if (rec.end) return null;
      }
      if (!job) return null;
      return { ...job, lines: job.lines.map((l) => lines.get(l.id) ?? l) };
    },
  };
}

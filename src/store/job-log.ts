import type { BulkJob, BulkLine } from '../domain/bulk';

/** Where a running bulk job is written down as it changes, so it can resume after a crash. */
export interface JobLog {
  begin(job: BulkJob): void;
  line(line: BulkLine): void;
  end(): void;
  /** An unfinished job, or null. */
  load(): BulkJob | null;
}

export function memoryJobLog(): JobLog & { records: unknown[] } {
  let job: BulkJob | null = null;
  const records: unknown[] = [];
  return {
    records,
    begin(j) {
      job = j;
      records.push({ begin: j.id });
    },
    line(l) {
      if (job) job = { ...job, lines: job.lines.map((x) => (x.id === l.id ? l : x)) };
      records.push({ line: l.id, state: l.state });
    },
    end() {
      job = null;
      records.push({ end: true });
    },
    load: () => job,
  };
}

/**
 * The next start's offer counts every line of an interrupted job once, so its counts add up to the
 * job's lines: a job resumed once may hold lines its re-read skipped (changed since marked), and
 * lines a user cancelled.
 */
import { expect, describe as group, it } from 'vitest';
import type { BulkLine } from '../../src/domain/bulk';
import { describe } from '../../src/ui/overlays/ResumeDialog';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';

group('the resume offer', () => {
  it('counts done, failed, unknown, never sent, skipped and cancelled lines, adding up to the job', () => {
    const states: Partial<BulkLine>[] = [
      { state: 'done' },
      { state: 'failed' },
      { state: 'unknown' },
      { state: 'pending' },
      { state: 'pending' },
      { state: 'skipped', detail: 'not sent: changed since it was marked' },
      { state: 'cancelled' },
    ];
    const job = extendJob(
      'job-x',
      states.map((p, i) => jobLine(lineItem({ id: String(i + 1), username: `u${i + 1}` }), p)),
    );
    const rows = describe({ job, unsent: 2 }, false);
    const counts = rows.find((r) => r[2] === 'job-x:counts')![0];
    expect(counts).toContain('1 done · 1 failed · 1 unknown · 2 never sent · 1 skipped · 1 cancelled');
    const sum = [...counts.matchAll(/(\d+) (?:done|failed|unknown|never sent|skipped|cancelled)/g)].reduce(
      (s, m) => s + Number(m[1]),
      0,
    );
    expect(sum).toBe(job.lines.length);
  });
});

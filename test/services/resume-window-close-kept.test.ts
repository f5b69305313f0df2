/**
 * A resume writes its job's file whole (`begin`) from the version it read once it took the job. A
 * close of the job's balance window another linedesk appended in between (it began a job of this
 * account, spending from then on) goes with the old file: the resume reads the log again once its
 * file is written, and closes the window again while another job is spending. Else its checks would
 * count the other job's charges as its own.
 */
import { describe, expect, it } from 'vitest';
import { racedResume } from './raced-resume';

describe('a resume and a window closed by another linedesk as it began', () => {
  it('keeps the window closed', async () => {
    // Its window open (a line applied from it), one line never sent. Another linedesk begins a job of
    // this account and closes the open windows, just after this resume read the log and before its
    // file is written again.
    const { job, service, raced, logged } = await racedResume({
      alsoOther: (other, id) => other.closeBalanceWindow(id),
    });
    await service.recoverIntents();
    await service.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(raced()).toBe(true);
    const now = logged();
    expect(now && 'job' in now ? now.job.balanceBefore : 'none').toBeNull();
  }, 30_000);
});

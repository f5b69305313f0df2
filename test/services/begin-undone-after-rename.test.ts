/**
 * `begin` renames a job's file into place, then syncs the directory. When that sync fails (an EIO, or
 * EMFILE opening the directory) the file is already there: left so, a new job would end "not sent"
 * (its results retrying the lines as a new job) while the next start offers the same lines from the
 * file — one set of lines in two jobs. Written whole or not at all: the file is taken back out; when
 * it cannot be, the lines end not sent and not retryable (the next start offers them), said so.
 */
import * as nodeFs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { type BulkJob, retryable } from '../../src/domain/bulk';
import { logDir, offlineService, pendingOnDisk } from './faulty-log-service';

const TARGET = 'sandbox:test';

const newJob = (over: Partial<BulkJob> = {}): BulkJob => ({
  id: 'new-job-0001',
  op: 'extend',
  months: 1,
  connections: 1,
  target: TARGET,
  createdAt: new Date().toISOString(),
  lines: ['a', 'b'].map((id) => ({
    id,
    username: id,
    before: { expMs: null, connections: 1, enabled: true, isTrial: false },
    cost: 1,
    after: {},
    state: 'pending' as const,
  })),
  ...over,
});

/** The directory cannot be opened to sync it (after the rename), as EMFILE or EIO would; `unlink`:
 *  the job's file cannot be removed either. */
function faultyFs(dir: string, { unlink }: { unlink: boolean }): Partial<IntentFs> {
  return {
    openSync: ((p: nodeFs.PathLike, flags?: nodeFs.OpenMode, mode?: nodeFs.Mode) => {
      if (String(p) === dir && flags === 'r')
        throw Object.assign(new Error(`EMFILE: too many open files, open '${dir}'`), { code: 'EMFILE' });
      return nodeFs.openSync(p, flags ?? 'r', mode);
    }) as typeof nodeFs.openSync,
    rmSync: ((p: nodeFs.PathLike, o?: nodeFs.RmOptions) => {
      if (unlink && String(p).endsWith('.jsonl'))
        throw Object.assign(new Error(`EIO: i/o error, rm '${String(p)}'`), { code: 'EIO', path: String(p) });
      nodeFs.rmSync(p, o);
    }) as typeof nodeFs.rmSync,
  };
}

describe('a begin that fails once its file is in place', () => {
  it('takes the file back out: the new job is not begun, and its results may retry its lines', async () => {
    const dir = logDir();
    const { changes } = offlineService(dir, faultyFs(dir, { unlink: false }));
    const final = await changes.runChange(newJob(), { bulk: true, linesReadAt: Date.now() });
    expect(final.lines.filter(retryable).map((l) => l.id)).toEqual(['a', 'b']);
    expect(pendingOnDisk(dir)).toEqual([]);
    expect(nodeFs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'))).toEqual([]);
  });

  it('whose file cannot be taken back out ends its lines not sent, never retryable, and says so', async () => {
    const dir = logDir();
    const { changes, notices } = offlineService(dir, faultyFs(dir, { unlink: true }));
    const final = await changes.runChange(newJob(), { bulk: true, linesReadAt: Date.now() });
    // The next start offers them from the file: the results do not retry them too.
    expect(pendingOnDisk(dir)).toEqual(['a', 'b']);
    expect(final.lines.filter(retryable)).toEqual([]);
    for (const l of final.lines) {
      expect(l).toMatchObject({ state: 'failed', notSent: true });
      expect(l.provenNotApplied).toBeUndefined();
      expect(l.detail).toMatch(/could not be taken back out .*the next start offers these lines again/);
    }
    expect(notices.join('\n')).toMatch(/Nothing was sent: .*new-job-0001\.jsonl stays/);
  });

  it("keeps a resumed job's file (it replaced the job's own): the job stays offered", async () => {
    const dir = logDir();
    const job = newJob({ id: 'resumed-job-0001', balanceBefore: 1_000 });
    const log = fileIntentLog(dir);
    log.begin(job);
    log.release(job.id);
    const { changes, notices } = offlineService(dir, faultyFs(dir, { unlink: false }));
    const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(final.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
    expect(pendingOnDisk(dir)).toEqual(['a', 'b']);
    expect(notices.join('\n')).toMatch(
      /Not resumed: .*This attempt sent nothing and charged nothing; job .* is offered at the next start/,
    );
  });
});

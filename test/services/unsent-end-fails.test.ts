/**
 * A job whose intent record could not be written ends its never-sent lines "not sent: the intent
 * log could not be written" (the engine's `sending` record, or a record the service needs before
 * sending: `notWritten`). Those lines' own records are refused by the same disk, so the job's file
 * still has them pending; and when the job's end cannot rename or remove that file either, the next
 * start offers them for resuming. Retried from the results meanwhile, the same lines would be in two
 * jobs (a double charge). They end not sent, never retryable, and the file is named; when the end
 * succeeds, they stay retryable as before.
 */
import * as nodeFs from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { type BulkJob, retryable } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { outcomeOf } from '../../src/services/changes/outcome';
import { logDir, offlineService, pendingOnDisk } from './faulty-log-service';

const TARGET = 'sandbox:test';

const job = (id: string, over: Partial<BulkJob> = {}, names = ['a', 'b']): BulkJob => ({
  id,
  // Spends nothing: no balance is read, nothing is asked of the server before the first request.
  op: 'unsuspend',
  months: 1,
  connections: 1,
  target: TARGET,
  createdAt: new Date().toISOString(),
  lines: names.map((n) => ({
    id: n,
    username: n,
    before: { expMs: null, connections: 1, enabled: false, isTrial: false },
    cost: 0,
    after: {},
    state: 'pending' as const,
  })),
  ...over,
});

const APPEND = fsConstants.O_RDWR | fsConstants.O_APPEND;

/** Appends to a job's file fail (a full disk); `end`: its file cannot be renamed or removed either. */
function faultyFs({ end }: { end: boolean }): Partial<IntentFs> {
  const jobFile = (p: nodeFs.PathLike) => String(p).endsWith('.jsonl');
  return {
    openSync: ((p: nodeFs.PathLike, flags?: nodeFs.OpenMode, mode?: nodeFs.Mode) => {
      if (jobFile(p) && flags === APPEND)
        throw Object.assign(new Error(`ENOSPC: no space left on device, open '${String(p)}'`), {
          code: 'ENOSPC',
          path: String(p),
        });
      return nodeFs.openSync(p, flags ?? 'r', mode);
    }) as typeof nodeFs.openSync,
    renameSync: ((from: nodeFs.PathLike, to: nodeFs.PathLike) => {
      if (end && jobFile(from))
        throw Object.assign(new Error(`EIO: i/o error, rename '${String(from)}'`), {
          code: 'EIO',
          path: String(from),
        });
      nodeFs.renameSync(from, to);
    }) as typeof nodeFs.renameSync,
    rmSync: ((p: nodeFs.PathLike, o?: nodeFs.RmOptions) => {
      if (end && jobFile(p))
        throw Object.assign(new Error(`EIO: i/o error, rm '${String(p)}'`), { code: 'EIO', path: String(p) });
      nodeFs.rmSync(p, o);
    }) as typeof nodeFs.rmSync,
  };
}

/** Another job of the account, settled but not yet ended, its balance window open: a new job that
 *  sends closes that window first (`closeBalanceWindows`), a record the service needs before sending. */
function openWindowElsewhere(dir: string) {
  const log = fileIntentLog(dir);
  const other = job('other-job-0001', { balanceBefore: 500 }, ['z']);
  log.begin(other);
  log.line(other.id, { ...other.lines[0]!, state: 'done' });
  log.release(other.id);
}

const run = (dir: string, fs: Partial<IntentFs>) => {
  const s = offlineService(dir, fs);
  return { ...s, final: s.changes.runChange(job('new-job-0001'), { bulk: true, linesReadAt: Date.now() }) };
};

/**
 * The new job run on a disk where its file cannot be ended either: its lines stay pending on disk,
 * none retryable, each failed, not sent, refused here. Gives the job and the notices.
 */
async function keptOnDisk(dir: string) {
  const { final, notices } = run(dir, faultyFs({ end: true }));
  const job = await final;
  expect(pendingOnDisk(dir)).toEqual(['a', 'b']);
  expect(job.lines.filter(retryable)).toEqual([]);
  for (const l of job.lines) expect(l).toMatchObject({ state: 'failed', notSent: true, refusedHere: true });
  return { job, notices };
}

describe("lines not sent for a failed intent write, whose job's file cannot be ended", () => {
  it("the engine's `sending` record refused: not retryable, the file named", async () => {
    const dir = logDir();
    const { job, notices } = await keptOnDisk(dir);
    for (const l of job.lines) {
      expect(l.provenNotApplied).toBeUndefined();
      expect(l.detail).toMatch(/new-job-0001\.jsonl stays.*the next start offers this line again/);
    }
    expect(notices.join('\n')).toMatch(/new-job-0001\.jsonl stays.*next start offers 2 lines \(a, b\) again/);
  });

  it('a record needed before sending refused (`notWritten`): not retryable, the file named', async () => {
    const dir = logDir();
    openWindowElsewhere(dir);
    const { job, notices } = await keptOnDisk(dir);
    for (const l of job.lines) {
      expect(l.detail).toMatch(/^not sent: the intent log could not be written/);
    }
    expect(notices.join('\n')).toMatch(/new-job-0001\.jsonl stays/);
  });

  it('whose end waits for the journal (not attempted yet): not retryable, the file named', async () => {
    const dir = logDir();
    openWindowElsewhere(dir);
    const { changes, notices } = offlineService(dir, faultyFs({ end: false }), {
      // The journal's disk is full too: the job's end waits for its entries.
      journal: {
        ...memoryJournal(),
        append: () => {
          throw new Error('ENOSPC: no space left on device');
        },
      },
    });
    const final = await changes.runChange(job('new-job-0001'), { bulk: true, linesReadAt: Date.now() });
    await changes.shutdown(0);
    expect(pendingOnDisk(dir)).toEqual(['a', 'b']);
    expect(final.lines.filter(retryable)).toEqual([]);
    expect(notices.join('\n')).toMatch(/new-job-0001\.jsonl stays \(its end waits for the journal\)/);
  });

  it('whose end succeeds stay retryable (the file no longer offers them)', async () => {
    const dir = logDir();
    openWindowElsewhere(dir);
    const { final } = run(dir, faultyFs({ end: false }));
    const job = await final;
    expect(pendingOnDisk(dir)).toEqual([]);
    expect(job.lines.filter(retryable).map((l) => l.id)).toEqual(['a', 'b']);
  });

  it('a line that was sent, settled by hand as not applied: never said "not sent" (its request left)', async () => {
    const dir = logDir();
    const log = fileIntentLog(dir);
    const sent = job('sent-job-0001', {}, ['a']);
    log.begin(sent);
    log.line(sent.id, {
      ...sent.lines[0]!,
      state: 'unknown',
      sentAt: Date.now() - 60_000,
      detail: 'no reply',
    });
    log.release(sent.id);
    const { changes, notices } = offlineService(dir, faultyFs({ end: true }));
    const settled = changes.settleByHand(sent.id, 'a', 'not applied');
    expect(settled.ok).toBe(true);
    const line = settled.ok ? settled.job.lines[0]! : undefined;
    // On disk it is still unknown: the next start checks it; never retried from here meanwhile.
    expect(fileIntentLog(dir).open()[0]?.lines[0]?.state).toBe('unknown');
    expect(line && retryable(line)).toBe(false);
    expect(line?.notSent).toBeUndefined();
    expect(outcomeOf(line!)).not.toBe('not sent');
    expect(notices.join('\n')).toMatch(/sent-job-0001\.jsonl stays/);
  });
});

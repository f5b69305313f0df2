import { LinedeskError, LineNotFound, RateLimited } from '../api/errors';
import { type BulkJob, type BulkLine, FINAL } from '../domain/bulk';
import type { StoreClient } from './deps';
import { describeError } from './describe-error';
import { reconcile } from './reconcile';

export interface RunnerOptions {
  readonly client: StoreClient;
  /** Requests in flight at most (default 4); halved on a 429, grown back on success. */
  readonly concurrency?: number;
  /** Every line change, before anything else happens to that line (the job log writes it to disk). */
  readonly onLine: (line: BulkLine) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Polled between requests: true stops scheduling; requests in flight finish. */
  readonly cancelled: () => boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs a job to the end (or until cancelled). Each line is sent at most once per job: a line is
 * marked `sending` (and written down) before its request leaves; a failure that may have reached the
 * server makes it `unknown`, and unknown lines are checked against the server, never re-sent.
 * A 429 proves nothing was applied: the line goes back in the queue and everyone waits Retry-After.
 */
export async function runBulk(start: BulkJob, opts: RunnerOptions): Promise<BulkJob> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const maxConcurrency = Math.max(1, opts.concurrency ?? 4);
  const lines = new Map(start.lines.map((l) => [l.id, l]));
  const update = (id: string, patch: Partial<BulkLine>) => {
    const next = { ...lines.get(id)!, ...patch } as BulkLine;
    lines.set(id, next);
    opts.onLine(next);
  };
  const job = () => ({ ...start, lines: start.lines.map((l) => lines.get(l.id)!) });

  // A resumed job: whatever was in flight when the process died is checked first.
  await settleUnknown(start, lines, update, opts.client, sleep);

  const queue = start.lines.filter((l) => lines.get(l.id)!.state === 'pending').map((l) => l.id);
  let pauseUntil = 0;
  let limit = maxConcurrency;
  let active = 0;
  let streak = 0;

  const worker = async () => {
    while (queue.length && !opts.cancelled()) {
      const wait = pauseUntil - now();
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      if (active >= limit) {
        await sleep(5);
        continue;
      }
      const id = queue.shift()!;
      active++;
      try {
        await sendOne(id);
      } finally {
        active--;
      }
    }
  };

  const sendOne = async (id: string) => {
    const line = lines.get(id)!;
    update(id, { state: 'sending', detail: undefined });
    try {
      const r = await send(opts.client, start, line);
      update(id, {
        state: 'done',
        ...(r.deducedCredits !== undefined ? { deducedCredits: r.deducedCredits } : {}),
        ...(r.newBalance !== undefined ? { newBalance: r.newBalance } : {}),
      });
      if (++streak >= 10 && limit < maxConcurrency) {
        limit++;
        streak = 0;
      }
    } catch (err) {
      streak = 0;
      if (err instanceof RateLimited) {
        // Not applied: back in the queue; everyone slows down.
        update(id, { state: 'pending', detail: 'rate-limited, queued again' });
        queue.unshift(id);
        pauseUntil = Math.max(pauseUntil, now() + (err.retryAfterMs ?? 1000));
        limit = Math.max(1, Math.floor(limit / 2));
        return;
      }
      const outcome = err instanceof LinedeskError ? err.outcome : 'unknown';
      if (outcome !== 'unknown') {
        update(id, {
          state: 'failed',
          detail: err instanceof LineNotFound ? 'line not found' : describeError(err),
        });
        return;
      }
      update(id, { state: 'unknown', detail: describeError(err) });
      await checkOne(lines.get(id)!, start, update, opts.client);
    }
  };

  await Promise.all(Array.from({ length: maxConcurrency }, worker));
  await settleUnknown(start, lines, update, opts.client, sleep);
  return job();
}

async function send(
  client: StoreClient,
  job: BulkJob,
  line: BulkLine,
): Promise<{ deducedCredits?: number; newBalance?: number }> {
  switch (job.op) {
    case 'extend':
      return client.extendLine({ id: line.id, duration: job.months });
    case 'upgrade':
      return client.upgradeLine({ id: line.id, new_connections: job.connections });
    case 'unsuspend':
      await client.unsuspendLine({ id: line.id });
      return {};
    case 'delete':
      await client.deleteLine({ id: line.id });
      return {};
  }
}

/** Asks the server whether an unknown line was applied; leaves it unknown if the server can't say. */
async function checkOne(
  line: BulkLine,
  job: BulkJob,
  update: (id: string, p: Partial<BulkLine>) => void,
  client: StoreClient,
): Promise<void> {
  try {
    const v = await reconcile(client, {
      op: job.op,
      before: { id: line.id, expMs: line.before.expMs, connections: line.before.connections },
      connections: job.connections,
    });
    if (v.applied) update(line.id, { state: 'done', detail: 'applied (checked after an unknown outcome)' });
    else update(line.id, { state: 'failed', detail: 'not applied (checked after an unknown outcome)' });
  } catch (err) {
    update(line.id, { state: 'unknown', detail: `could not check: ${describeError(err)}` });
  }
}

/** Unknown and in-flight lines are checked, a few rounds if the server is flaky. */
async function settleUnknown(
  job: BulkJob,
  lines: Map<string, BulkLine>,
  update: (id: string, p: Partial<BulkLine>) => void,
  client: StoreClient,
  sleep: (ms: number) => Promise<void>,
): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const open = job.lines
      .map((l) => lines.get(l.id)!)
      .filter((l) => l.state === 'unknown' || l.state === 'sending');
    if (!open.length) return;
    if (round > 0) await sleep(250 * 2 ** round);
    for (const l of open) if (!FINAL.has(l.state)) await checkOne(l, job, update, client);
  }
}

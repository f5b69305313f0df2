import type { CreateLineBody, CreateTrialBody, Line, LineListItem } from '../../api/contract';
import { LinedeskError, LineNotFound, NetworkError, RateLimited, TimeoutError } from '../../api/errors';
import { DEFAULT_RETRY, type RetryPolicy, rateLimitPause } from '../../api/retry';
import { type BulkJob, type BulkLine, OPEN, SPENDS } from '../../domain/bulk';
import { DEFAULT_HOLD_MS, type Evidence, judge } from '../../domain/proof';
import type { ServiceClient } from '../client';
import { describeError } from '../describe-error';
import { gatherEvidence } from './evidence';
import { writeRefused } from './intent-log';

export interface EngineOptions {
  readonly client: ServiceClient;
  /** Requests in flight at most (default 4); halved on a 429, grown back on success. */
  readonly concurrency?: number;
  /**
   * Every change of a line's state, before anything else happens to it: the intent log writes it to
   * disk. If it throws for `sending`, the request is not sent.
   */
  readonly onLine: (line: BulkLine, serverLine?: Line | LineListItem) => void;
  /** The error behind a line's failure or unknown outcome (a single change routes it to its form). */
  readonly onError?: (line: BulkLine, err: unknown) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** Pauses after a 429 (tests shrink them); the transport's default policy otherwise. */
  readonly retry?: Partial<RetryPolicy>;
  /** Polled between requests: true stops scheduling; requests in flight finish. */
  readonly cancelled: () => boolean;
  /**
   * Polled between requests: the process is going away (Ctrl-C, q, a signal, a dead terminal). Like
   * a cancel it stops scheduling, but it is not the user's cancel: queued lines stay `pending` (never
   * sent, offered for resuming at the next start), and nothing is checked after the requests in
   * flight (the next start checks them).
   */
  readonly interrupted?: () => boolean;
  /**
   * Asked before each verdict: true when another job (perhaps another process's) has started
   * spending since this one began, so the balance no longer says what this job's lines cost.
   */
  readonly windowClosed?: () => boolean;
  /** How long a check that sees no change proves only "not yet" (domain/proof.ts `Hold`). */
  readonly holdMs?: number;
  /**
   * The service cannot be reached (a connection refused, DNS, the connect deadline: nothing left):
   * the job pauses, says so here and probes; null once it answers again.
   */
  readonly onPause?: (reason: string | null) => void;
  /** How long a job waits for an unreachable service before it stops sending (default 5 minutes). */
  readonly unreachableMs?: number;
  /**
   * Asked before each round of verdicts: the lines another job (another linedesk's) has an open change
   * of or applied lately, and what it did, in words. The change such a line shows may be theirs, and so
   * may the balance's fall.
   */
  readonly otherChanges?: () => ReadonlyMap<string, string>;
  /**
   * Asked when a round cannot judge by the balance (its window closed): the lines other jobs applied
   * (open, or ended lately), and what they did, in words. This job's "before" of such a line may
   * predate that change, so the change a check sees may be theirs. While the window is open the
   * balance tells (a change with no charge since this job began is not this job's).
   */
  readonly appliedLately?: () => ReadonlyMap<string, string>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
/** Rounds of checking open lines after the requests; the rest stays unknown, in the intent log. */
const SETTLE_ROUNDS = 3;

/**
 * The one change engine: runs a job (a single change is a job of one line) to the end or until
 * cancelled. Each line is sent at most once: it is written down as `sending` before its request
 * leaves; a failure that may have reached the server makes it `unknown`, and unknown lines are judged
 * with proof (`domain/proof.ts`) once nothing is in flight, never re-sent. A 429 proves nothing was
 * applied: the line goes back in the queue and everyone waits (at least the floor, whatever the server
 * says). Lines still queued when the user cancels the job end `cancelled`; when the process is
 * interrupted they stay `pending`, to be resumed.
 */
export async function runJob(start: BulkJob, opts: EngineOptions): Promise<BulkJob> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const policy = { ...DEFAULT_RETRY, ...opts.retry };
  const maxConcurrency = Math.max(1, opts.concurrency ?? 4);
  const interrupted = opts.interrupted ?? (() => false);
  const stopped = () => opts.cancelled() || interrupted();
  const state = new JobState(start, opts.onLine);

  // A resumed job: whatever was in flight when the process stopped is settled first.
  await settle(state, { ...opts, interrupted }, sleep, SETTLE_ROUNDS);

  const queue = state
    .lines()
    .filter((l) => l.state === 'pending')
    .map((l) => l.id);
  const down = unreachable({ ...opts, cancelled: stopped }, now, sleep);
  let pauseUntil = 0;
  let limit = maxConcurrency;
  let active = 0;
  let streak = 0;
  let limited = 0;

  const sendOne = async (id: string) => {
    try {
      state.update(id, { state: 'sending', detail: undefined, sentAt: now() });
    } catch (err) {
      // Not written down, so not sent: a request must never leave without its intent on disk. Ended
      // not sent like any line stopped before sending, and reported so (journaled, shown): its own
      // record is likely refused too (`update` goes on then), the file keeping it never sent.
      state.update(id, {
        state: 'failed',
        detail: `not sent: the intent log could not be written ${writeRefused(err)}`,
        provenNotApplied: true,
        notSent: true,
        refusedHere: true,
      });
      return;
    }
    const line = state.get(id);
    try {
      const r = await send(opts.client, state.job, line);
      limited = 0;
      const charged = SPENDS.has(state.job.op);
      state.update(
        id,
        {
          state: 'done',
          ...(r.line && state.job.op !== 'delete' ? { id: r.line.id } : {}),
          ...(r.deducedCredits !== undefined ? { deducedCredits: r.deducedCredits } : {}),
          ...(r.newBalance !== undefined ? { newBalance: r.newBalance } : {}),
          ...(charged
            ? { charge: r.deducedCredits !== undefined ? ('reply' as const) : ('unknown' as const) }
            : {}),
        },
        r.line,
      );
      if (++streak >= 10 && limit < maxConcurrency) {
        limit++;
        streak = 0;
      }
    } catch (err) {
      streak = 0;
      const single = state.lines().length === 1;
      if (
        (err instanceof NetworkError || err instanceof TimeoutError) &&
        err.outcome === 'not_sent' &&
        !single
      ) {
        // Never left: back in the queue, and the job waits for the service instead of failing the rest
        // (a single change says so at once: the user is looking at it).
        state.update(id, {
          state: 'pending',
          detail: `not sent: ${describeError(err)} Waiting for the service.`,
          // Nothing left: never counted as sent (its next attempt writes its own).
          sentAt: undefined,
        });
        queue.unshift(id);
        down.report(err);
        return;
      }
      if (err instanceof RateLimited && err.outcome === 'rejected') {
        // Not applied: back in the queue; everyone slows down, exponentially while 429s continue.
        state.update(id, { state: 'pending', detail: 'rate-limited, queued again' });
        queue.unshift(id);
        pauseUntil = Math.max(
          pauseUntil,
          now() + rateLimitPause(policy, limited++, err.retryAfterMs, random),
        );
        limit = Math.max(1, Math.floor(limit / 2));
        return;
      }
      opts.onError?.(line, err);
      const outcome = err instanceof LinedeskError ? err.outcome : 'unknown';
      if (outcome === 'not_sent') {
        // Provably never left (the client's own checks refused it before its request was written, the
        // connection was never made, a request made ahead ended before its gate opened): not sent, with
        // its reason, and no `sentAt` (the file and the words would count it as sent). Anything that
        // may have left is `unknown` below, never this.
        state.update(id, {
          state: 'failed',
          detail: `not sent: ${describeError(err)}`,
          provenNotApplied: true,
          notSent: true,
          sentAt: undefined,
        });
        return;
      }
      if (outcome === 'rejected') {
        state.update(id, {
          state: 'failed',
          detail: err instanceof LineNotFound ? 'line not found' : describeError(err),
          provenNotApplied: true,
        });
        return;
      }
      state.update(id, { state: 'unknown', detail: `no clear answer: ${describeError(err)}` });
    }
  };

  const worker = async () => {
    while (queue.length && !stopped() && !down.gaveUp) {
      if (down.isDown) {
        await down.wait();
        continue;
      }
      const wait = pauseUntil - now();
      if (wait > 0) {
        await sleep(Math.min(wait, 250));
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

  await Promise.all(Array.from({ length: maxConcurrency }, worker));
  // Interrupted: the queue stays `pending` as written (an interruption is not the user's cancel), and
  // the lines in flight are left for the next start to check: nothing runs on after the user leaves.
  if (interrupted()) {
    down.end();
    return state.job;
  }
  if (opts.cancelled())
    for (const id of queue) state.update(id, { state: 'cancelled', detail: 'cancelled before it was sent' });
  else if (down.gaveUp)
    for (const id of queue)
      state.update(id, {
        state: 'failed',
        detail: `not sent: ${down.gaveUp}`,
        provenNotApplied: true,
        notSent: true,
      });
  down.end();
  await settle(state, opts, sleep, SETTLE_ROUNDS);
  return state.job;
}

/**
 * The job's view of an unreachable service: once a request could not even connect, no worker sends
 * until a probe (a read of the account) answers; probes back off to 15 s. After `unreachableMs`
 * without an answer (or on cancel) the job stops, and what it never sent is said as such.
 */
function unreachable(opts: EngineOptions, now: () => number, sleep: (ms: number) => Promise<void>) {
  const limitMs = opts.unreachableMs ?? 5 * 60_000;
  let since: number | null = null;
  let probing: Promise<void> | null = null;
  let gaveUp: string | null = null;
  const probe = async () => {
    for (let attempt = 0; since !== null && !opts.cancelled(); attempt++) {
      const waited = now() - since;
      if (waited >= limitMs) {
        gaveUp = `the service could not be reached for ${Math.round(waited / 1000)} s; the job stopped before sending it`;
        break;
      }
      opts.onPause?.(
        `The service cannot be reached (${Math.round(waited / 1000)} s): nothing is being sent; checking whether it answers again…`,
      );
      await sleep(Math.min(15_000, 1_000 * 2 ** attempt));
      try {
        await opts.client.me();
        since = null;
      } catch {
        // still down
      }
    }
    since = null;
    probing = null;
    opts.onPause?.(null);
  };
  return {
    get isDown() {
      return since !== null;
    },
    get gaveUp() {
      return gaveUp;
    },
    report(_err: unknown) {
      since ??= now();
      probing ??= probe();
    },
    async wait() {
      await (probing ?? Promise.resolve());
    },
    end() {
      since = null;
    },
  };
}

/** Checks a job's open lines with the server (the `r` of an unknown outcome, and the start-up check). */
export async function checkJob(
  job: BulkJob,
  opts: Pick<
    EngineOptions,
    | 'client'
    | 'onLine'
    | 'sleep'
    | 'windowClosed'
    | 'holdMs'
    | 'now'
    | 'otherChanges'
    | 'appliedLately'
    | 'interrupted'
  >,
): Promise<BulkJob> {
  const state = new JobState(job, opts.onLine);
  await settle(state, opts, opts.sleep ?? defaultSleep, 1);
  return state.job;
}

/** Lines by id, each change reported (written down) before anything else happens. */
class JobState {
  #job: BulkJob;
  readonly #index: Map<string, number>;
  constructor(
    job: BulkJob,
    private readonly onLine: EngineOptions['onLine'],
  ) {
    this.#job = job;
    this.#index = new Map(job.lines.map((l, i) => [l.id, i]));
  }
  get job(): BulkJob {
    return this.#job;
  }
  lines(): readonly BulkLine[] {
    return this.#job.lines;
  }
  get(id: string): BulkLine {
    return this.#job.lines[this.#index.get(id)!]!;
  }
  /** The line patched, without telling the log (`update` tells it); a field patched `undefined` is removed. */
  #patch(id: string, patch: Partial<BulkLine>): BulkLine {
    const i = this.#index.get(id)!;
    const merged: Record<string, unknown> = { ...this.#job.lines[i]!, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete merged[k];
    const next = merged as unknown as BulkLine;
    const lines = [...this.#job.lines];
    lines[i] = next;
    this.#job = { ...this.#job, lines };
    // A created line gets its real id: later lookups use it.
    if (next.id !== id) {
      this.#index.delete(id);
      this.#index.set(next.id, i);
    }
    return next;
  }
  #restore(id: string, line: BulkLine): void {
    const lines = [...this.#job.lines];
    lines[this.#index.get(id)!] = line;
    this.#job = { ...this.#job, lines };
  }
  update(id: string, patch: Partial<BulkLine>, serverLine?: Line | LineListItem): void {
    const prev = this.get(id);
    const next = this.#patch(id, patch);
    try {
      this.onLine(next, serverLine);
    } catch (err) {
      // The request has not left yet: undo, so the caller does not send it. Put back whole, not
      // merged: a merge would keep the `sentAt` of a request that never left.
      if (patch.state === 'sending') {
        this.#restore(next.id, prev);
        throw err;
      }
    }
  }
}

async function send(
  client: ServiceClient,
  job: BulkJob,
  line: BulkLine,
): Promise<{ line?: Line; deducedCredits?: number; newBalance?: number }> {
  switch (job.op) {
    case 'create':
      return client.createLine(line.body as CreateLineBody);
    case 'trial':
      return client.createTrial(line.body as CreateTrialBody);
    case 'extend':
      return client.extendLine({ id: line.id, duration: job.months });
    case 'upgrade':
      return client.upgradeLine({ id: line.id, new_connections: job.connections });
    case 'unsuspend':
      return { line: await client.unsuspendLine({ id: line.id }) };
    case 'delete':
      await client.deleteLine({ id: line.id });
      return {};
  }
}

/**
 * Open lines (unknown, or `sending` when a process stopped) are judged with proof once nothing is in
 * flight: the balance read after the lines is only meaningful then. A few rounds if the server is
 * flaky; what is still unknown stays so, in the intent log, with what the user can do.
 */
async function settle(
  state: JobState,
  opts: Pick<
    EngineOptions,
    'client' | 'windowClosed' | 'holdMs' | 'now' | 'otherChanges' | 'appliedLately' | 'interrupted'
  >,
  sleep: (ms: number) => Promise<void>,
  rounds = SETTLE_ROUNDS,
) {
  const { client } = opts;
  const windowClosed = opts.windowClosed ?? (() => false);
  const now = opts.now ?? Date.now;
  // Nothing is in flight while settling: a line settled in one round stays settled; evidence is
  // kept only until its verdict (lines judged together need each other's).
  const evidence = new Map<string, Evidence>();
  const found = new Map<string, LineListItem>();
  for (let round = 0; round < rounds; round++) {
    const open = state.lines().filter((l) => OPEN.has(l.state));
    const pendingCharge = state
      .lines()
      .some((l) => l.state === 'done' && l.charge === 'unknown' && !l.maybeOther);
    if (!open.length && !pendingCharge) return;
    if (opts.interrupted?.()) return;
    if (round > 0) await sleep(500 * 2 ** round);
    if (opts.interrupted?.()) return;
    let failure: unknown = null;
    for (const l of open) {
      try {
        const e = await gatherEvidence(client, state.job, l);
        evidence.set(l.id, e.evidence);
        if (e.line) found.set(l.id, e.line);
      } catch (err) {
        failure = err;
      }
    }
    let balance: number | null = null;
    if (SPENDS.has(state.job.op)) {
      try {
        balance = (await client.me()).credits;
      } catch (err) {
        failure = err;
      }
    }
    // Another client's open change of a line could be what the line shows: its balance is not ours.
    const touched = opts.otherChanges?.() ?? new Map<string, string>();
    const others = new Map<string, string>();
    for (const l of open) if (touched.has(l.id)) others.set(l.id, touched.get(l.id)!);
    const closed = windowClosed() || others.size > 0;
    if (closed) {
      const lately = opts.appliedLately?.() ?? new Map<string, string>();
      for (const l of open) if (!others.has(l.id) && lately.has(l.id)) others.set(l.id, lately.get(l.id)!);
    }
    const job = closed ? { ...state.job, balanceBefore: null } : state.job;
    const verdicts = judge(job, evidence, balance, { now: now(), holdMs: opts.holdMs ?? DEFAULT_HOLD_MS });
    for (const v of verdicts) {
      const prev = state.get(v.id);
      const line = found.get(v.id) as LineListItem | undefined;
      // Once possibly another client's, always: a later round's balance cannot tell them apart either.
      const other = v.state === 'done' ? (others.get(v.id) ?? prev.maybeOther) : undefined;
      state.update(
        v.id,
        {
          state: v.state,
          detail:
            v.state === 'unknown' && failure
              ? `${v.detail} (${describeError(failure)})`
              : other
                ? `applied, possibly by another client (${other}); charged, amount unknown`
                : v.detail,
          ...(v.deducedCredits !== undefined && !other ? { deducedCredits: v.deducedCredits } : {}),
          ...(other
            ? { charge: 'unknown' as const, maybeOther: other }
            : v.charge
              ? { charge: v.charge }
              : {}),
          ...(v.provenNotApplied ? { provenNotApplied: true } : {}),
          // The check settled it (its words say "checked with the server"; the screens read this).
          ...(v.state !== 'unknown' ? { settledAfterUnknown: 'checked' as const } : {}),
          ...(line && v.state === 'done' && prev.id.startsWith('new:') ? { id: line.id } : {}),
        },
        line,
      );
    }
    // A line still unknown is asked again next round: its evidence may have been stale (search lag).
    const stillOpen = new Set(
      state
        .lines()
        .filter((l) => OPEN.has(l.state))
        .map((l) => l.id),
    );
    for (const id of stillOpen) evidence.delete(id);
    const judged = new Set(verdicts.map((v) => v.id));
    for (const l of open)
      if (stillOpen.has(l.id) && !judged.has(l.id) && failure)
        state.update(l.id, {
          state: 'unknown',
          detail: `still unknown: the server could not be asked (${describeError(failure)})`,
        });
  }
}

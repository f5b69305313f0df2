/**
 * The change service: what both front-ends call to change lines, with no UI state. It validates a
 * change (validate.ts: one rule table), quotes it (quote.ts: the server's quote or a labelled
 * estimate), and sends it as a job through the one change engine (engine.ts) with the intent log
 * written first and the journal after; a bulk job is the same service over many lines. It owns the
 * domain state of open changes: which lines have an unknown or held change (OpenLines), the
 * background checks of a job in its hold window, and the recovery at start of what an earlier run
 * left open. Front-ends follow it through `subscribe` (typed events); the screens' store mirrors
 * what it draws, a command prints what it needs.
 */
import { randomUUID } from 'node:crypto';
import type { Account, Line, LineListItem, Package } from '../../api/contract';
import type { RetryPolicy } from '../../api/retry';
import {
  type BulkJob,
  type BulkLine,
  checkedNotApplied,
  FINAL,
  OPEN,
  SPENDS,
  toBulkLine,
} from '../../domain/bulk';
import type { Refusal } from '../../domain/change-rules';
import { counted } from '../../domain/format';
import { DEFAULT_HOLD_MS, heldUntil } from '../../domain/proof';
import type { ServiceClient } from '../client';
import { describeError } from '../describe-error';
import { lookupPasted } from '../paste-lookup';
import { checkJob, type EngineOptions, runJob } from './engine';
import { holdDamagedIntents, type Notify, takeJob } from './intent-damage';
import { type ForeignJob, type IntentLog, needsAttention } from './intent-log';
import { type Journal, type JournalEntry, type JournalOutcome, JournalWriter } from './journal';
import { auditOf } from './journal-audit';
import type { OpenLines } from './open-lines';
import { outcomeMessage, outcomeOf, type SendResult } from './outcome';
import { othersOf } from './ownership';
import { planJob, type QuoteResult, quoteChange, quoteLocally, quoteUpgrades } from './quote';
import { type Change, type Facts, validate, validateJob } from './validate';

/** A job found open in the intent log at start, after its unknown lines were checked. */
export interface Recovered {
  readonly job: BulkJob;
  /** Lines never sent when the process stopped (not cancelled): offered for resuming. */
  readonly unsent: number;
}

/** What the service tells its front-ends, in order, as it happens. */
export type ChangeEvent =
  /** Something to say (the screens' flash line, a command's stderr). */
  | { readonly type: 'notice'; readonly text: string; readonly tone: Parameters<Notify>[1] }
  /** The lines with an open change (or held for someone else) changed. */
  | { readonly type: 'open'; readonly open: OpenLines }
  /** Journal entries not yet on disk (a write failed): retried, and shown until written. */
  | { readonly type: 'journalWaiting'; readonly waiting: number }
  /** The account as read just before a spending job (its balance judges the job). */
  | { readonly type: 'account'; readonly account: Account }
  /** A line of a job changed state, with the line as the server returned or listed it. */
  | {
      readonly type: 'line';
      readonly job: BulkJob;
      readonly line: BulkLine;
      readonly server?: Line | LineListItem | undefined;
    }
  /** A run or a check ended (not by shutdown): the balance and the lines it changed are stale. */
  | { readonly type: 'finished'; readonly job: BulkJob }
  /** A job was checked again in the background (the dialog, the bulk results, the recovery follow). */
  | { readonly type: 'checked'; readonly job: BulkJob }
  /** The recovery at start: the jobs found open, while they are checked and once they were. */
  | {
      readonly type: 'recovery';
      readonly checking: boolean;
      readonly jobs: readonly Recovered[];
    }
  /** Lines an interrupted job never sent, as the server has them now (to be marked again). */
  | { readonly type: 'unsent'; readonly lines: readonly LineListItem[] };

export interface ChangeHooks {
  /** Throttled by the caller: every change of a line (the job as it stands). */
  readonly onProgress?: (job: BulkJob) => void;
  readonly onError?: EngineOptions['onError'];
  /** Every change of a line, with the line as the server returned or listed it. */
  readonly onLine?: EngineOptions['onLine'];
  /** The service cannot be reached and the job waits (a sentence), or null once it answers again. */
  readonly onPause?: EngineOptions['onPause'];
  /** A check nobody asked for now (the background checks): nothing said when another linedesk has it. */
  readonly background?: boolean;
  /** A bulk job (even of one line): the journal says so. */
  readonly bulk?: boolean;
  /** A single change: its job of one line, made, before anything is written or sent. */
  readonly onStart?: (job: BulkJob) => void;
}

/** What the service needs: the client, the account, the files (intent log, journal), the clock. */
export interface ChangeServiceDeps {
  readonly client: ServiceClient;
  /** The account changes are made on: its id (jobs are kept per account) and its label (the journal). */
  readonly target: { readonly id: string; readonly label: string };
  readonly now?: () => number;
  readonly journal?: Journal;
  readonly intents?: IntentLog;
  readonly foreignIntents?: () => readonly ForeignJob[];
  readonly sleep?: (ms: number) => Promise<void>;
  readonly retry?: Partial<RetryPolicy>;
  readonly holdMs?: number;
  /** Keep checking open changes in the background during their hold window (the app, not scripts). */
  readonly watch?: boolean;
  readonly watchFirstMs?: number;
  readonly unreachableMs?: number;
  readonly bulkConcurrency?: number;
  readonly logError?: (context: string, err: unknown) => void;
}

export interface ChangeService {
  /** Follows what the service does; returns the unsubscribe. */
  subscribe(listener: (e: ChangeEvent) => void): () => void;
  /** The lines that take no new change now. */
  open(): OpenLines;
  /**
   * The rules, in order (validate.ts): those that need no cost first, the line's open change among
   * them, then the balance rules once `facts.cost` is known. A refusal, or null.
   */
  validate(change: Change, facts?: Omit<Facts, 'open'>): Refusal | null;
  /** A planned job's rules (something to do, every cost known, the total against the balance). */
  validateJob: typeof validateJob;
  /** The server's quote, or extend's labelled estimate from `packages`; or why there is none. */
  quote(change: Change, packages: readonly Package[]): Promise<QuoteResult>;
  /** The same, when no server quote is needed (extend's estimate, a free change); null otherwise. */
  quoteLocally(change: Change, packages: readonly Package[]): QuoteResult | null;
  /** A job of these lines, planned (a line with an open change left out, saying why). */
  plan(
    op: BulkJob['op'],
    lines: readonly BulkLine[],
    params: Pick<BulkJob, 'months' | 'connections'>,
    packages: readonly Package[],
  ): BulkJob;
  /** A planned job's upgrade lines quoted by the server, four at a time (stops once not `wanted`). */
  quoteJob(job: BulkJob, wanted?: () => boolean): Promise<BulkJob>;
  /** A single change as a job of one line, at the cost quoted: sent, and its typed outcome. */
  send(change: Change, cost: number | null, hooks?: ChangeHooks): Promise<SendResult>;
  /** A single change's job checked again after an unknown outcome (never re-sent). */
  recheck(job: BulkJob, hooks?: ChangeHooks): Promise<SendResult>;
  /** A single change's job as it stands now (a background check moved it on). */
  resultOf(job: BulkJob): SendResult;
  /** Journal entries not yet on disk. */
  journalWaiting(): number;
  /** Runs a job through the one change engine: intent first, then requests, outcomes, journal. */
  runChange(job: BulkJob, hooks?: ChangeHooks): Promise<BulkJob>;
  /** Checks a job's unknown lines with the server again (never re-sends). */
  checkChange(job: BulkJob, hooks?: ChangeHooks): Promise<BulkJob>;
  /** Stops scheduling the running job's requests; those in flight finish. */
  cancel(): void;
  /** At start: open intents of this service are checked before anything else. */
  recoverIntents(): Promise<readonly Recovered[]>;
  /** The recovery's "set aside": the jobs are closed (their journal entries stay), or released. */
  setAside(jobs: readonly Recovered[]): void;
  /** The user settles an open line by hand: recorded as settled by the user; the line is free. */
  settleByHand(jobId: string, lineId: string, verdict: 'applied' | 'not applied'): BulkJob | null;
  /**
   * The process is going away: stop scheduling, wait at most `graceMs` for requests in flight. Not a
   * cancel: the lines never sent stay pending.
   */
  shutdown(graceMs: number): Promise<void>;
}

/** What the journal says of a line's state (null: nothing to journal yet). */
const journalOutcomeOf = (l: BulkLine): JournalOutcome | null =>
  l.state === 'done'
    ? 'applied'
    : l.state === 'unknown'
      ? 'unknown'
      : l.state === 'failed'
        ? l.notSent
          ? 'not sent'
          : checkedNotApplied(l)
            ? 'not applied'
            : 'rejected'
        : null;

/** Background checks of a job in its hold window: 5 s, 10 s, 20 s… at most a minute apart. */
const watchDelay = (attempt: number, firstMs = 5_000) => Math.min(60_000, firstMs * 2 ** attempt);

/**
 * What the intent log keeps of a line: a new line's password stays in memory only (the check after an
 * unknown outcome needs its username, not its password).
 */
function forDisk(l: BulkLine): BulkLine {
  if (!l.body || !('password' in l.body)) return l;
  const { password: _secret, ...body } = l.body;
  return { ...l, body };
}

export function createChangeService(deps: ChangeServiceDeps): ChangeService {
  const now = deps.now ?? Date.now;
  const holdMs = deps.holdMs ?? DEFAULT_HOLD_MS;
  const target = deps.target;
  const listeners = new Set<(e: ChangeEvent) => void>();
  const emit = (e: ChangeEvent) => {
    for (const l of [...listeners]) l(e);
  };
  const notify: Notify = (text, tone) => emit({ type: 'notice', text, tone });
  let open: OpenLines = { unsettled: new Map(), held: new Map() };
  const setOpen = (next: OpenLines) => {
    open = next;
    emit({ type: 'open', open });
  };
  let cancelled = false;
  /** The process is going away (shutdown): not the user's cancel; what was never sent stays pending. */
  let interrupted = false;
  let running: Promise<BulkJob> | null = null;
  /** Jobs checked in the background while their hold window runs (the app only: `deps.watch`). */
  const watches = new Map<string, ReturnType<typeof setTimeout>>();
  /** The last state of each job this process ran or checked, for a log-less service (tests). */
  const latest = new Map<string, BulkJob>();
  /** Jobs started as bulk jobs by this process: their checks are journaled as such. */
  const asBulk = new Set<string>();
  const journal = deps.journal
    ? new JournalWriter(deps.journal, (err, waiting) => {
        deps.logError?.('journal', err);
        emit({ type: 'journalWaiting', waiting });
        notify(
          `Could not write the journal (${describeError(err)}): ${waiting} entr${waiting === 1 ? 'y waits' : 'ies wait'}; retrying. The charge is kept on screen and in the intent log.`,
          'error',
        );
      })
    : null;

  const setUnsettled = (l: BulkLine, jobId: string) => {
    const has = open.unsettled.has(l.id);
    const isOpen = OPEN.has(l.state);
    if (has === isOpen) return;
    const unsettled = new Map(open.unsettled);
    if (isOpen) unsettled.set(l.id, jobId);
    else unsettled.delete(l.id);
    setOpen({ unsettled, held: open.held });
  };

  /** Lines someone else is changing (or a damaged file names): no change from here touches them. */
  const hold = (lines: readonly { readonly id: string }[], key: string, who: string) => {
    const unsettled = new Map(open.unsettled);
    const heldBy = new Map(open.held);
    for (const l of lines) {
      unsettled.set(l.id, key);
      heldBy.set(l.id, who);
    }
    setOpen({ unsettled, held: heldBy });
  };

  /**
   * Jobs recorded for this service under another account id are this account's only when the server
   * shows it every line they name (line ids are the service's own; an account sees only its lines):
   * then they are moved here and checked with the rest. Otherwise their lines are held — a line
   * whose change may have been applied is never changed again from here — and said, with where.
   */
  const adoptForeign = async () => {
    for (const f of deps.foreignIntents?.() ?? []) {
      if (f.heldElsewhere) {
        holdLines(f.job, f.heldElsewhere);
        continue;
      }
      if (await showsEveryLine(f.job)) {
        try {
          f.adopt();
          continue;
        } catch (err) {
          deps.logError?.('intent log', err);
        }
      }
      holdLines(f.job, 'an earlier change recorded under another key or account', false);
      notify(
        `An earlier ${f.job.op} recorded for this service under another key or account (${counted(f.job.lines.length, 'line')}: ${f.job.lines
          .slice(0, 3)
          .map((l) => l.username)
          .join(
            ', ',
          )}${f.job.lines.length > 3 ? '…' : ''}) is not this account's as far as the server shows: its lines are held, nothing is re-sent; it is kept in ${f.where}`,
        'error',
      );
    }
  };
  const showsEveryLine = async (job: BulkJob) => {
    // A line being created has no id yet: its username, found here, is this account's.
    const keys = job.lines.map((l) => (l.id.startsWith('new:') ? l.username : l.id));
    if (!keys.length) return false;
    try {
      const { found } = await lookupPasted(deps.client, keys, {
        cancelled: () => false,
        progress: () => {},
        maxPages: 20,
      });
      return job.lines.every((l) => {
        const hit = found.get(l.id.startsWith('new:') ? l.username : l.id);
        return hit !== undefined && (l.id.startsWith('new:') ? hit.username === l.username : hit.id === l.id);
      });
    } catch (err) {
      deps.logError?.('foreign job', err);
      return false;
    }
  };

  /** Whether the log says another job closed this one's balance window (perhaps from another process). */
  const windowClosedOf = (jobId: string) => () =>
    deps.intents?.open().find((j) => j.id === jobId)?.balanceBefore === null;

  /** What the other open jobs of this account hold (ownership.ts), read from the intent log once. */
  const othersOfJob = (jobId: string): { lines: ReadonlyMap<string, string>; spending: boolean } => {
    let jobs: BulkJob[] = [];
    try {
      jobs = deps.intents?.open() ?? [];
    } catch (err) {
      deps.logError?.('intent log', err);
    }
    return othersOf(jobs, jobId, target.id, (id) => deps.intents?.heldElsewhere(id) ?? null);
  };
  const otherChanges = (jobId: string) => othersOfJob(jobId).lines;

  /**
   * The marks an interrupted job was started from are gone with its process: its lines never sent are
   * looked up (so a mark holds the line as the server has it now) and said, to be marked again, for a
   * resume or a new job of the user's choosing.
   */
  const findUnsent = async (jobs: readonly Recovered[]) => {
    const ids = jobs.flatMap((r) =>
      r.job.lines.filter((l) => l.state === 'pending' && !l.id.startsWith('new:')).map((l) => l.id),
    );
    if (!ids.length) return;
    try {
      const { found } = await lookupPasted(deps.client, ids, {
        cancelled: () => interrupted,
        progress: () => {},
        maxPages: 20,
      });
      emit({
        type: 'unsent',
        lines: ids.flatMap((id) => (found.get(id)?.id === id ? [found.get(id)!] : [])),
      });
    } catch (err) {
      deps.logError?.('marks of an interrupted job', err);
    }
  };

  /** Lines another process is changing: no change from here touches them while it runs. */
  const holdLines = (job: BulkJob, who: string, say = true) => {
    hold(
      job.lines.filter((x) => !FINAL.has(x.state) && !x.id.startsWith('new:')),
      job.id,
      who,
    );
    if (say)
      notify(
        `${who} is making an earlier ${job.op} (${counted(job.lines.length, 'line')}): its lines are left to it until it ends`,
        'warning',
      );
  };

  /**
   * What was last journaled per operation: its outcome and what it said of the charge. Seeded from
   * the journal itself on first use, so a later process (the next start, `linedesk pending`) checking
   * the same job adds nothing either: a check that leaves a line unknown, or a recovery that finds a
   * line settled as already written, writes no second entry. One entry per operation, unless its
   * outcome or its charge changed.
   */
  const journaled = new Map<string, string>();
  let seeded = false;
  const said = (e: Pick<JournalEntry, 'outcome' | 'deducedCredits' | 'charge' | 'detail'>) =>
    e.outcome === 'unknown'
      ? 'unknown'
      : `${e.outcome}|${e.deducedCredits ?? ''}|${e.charge ?? ''}|${e.detail ?? ''}`;
  const lastJournaled = (opId: string): string | undefined => {
    if (!seeded && deps.journal) {
      seeded = true;
      try {
        // In order: the last entry of an operation is what it says now.
        for (const e of deps.journal.read()) if (e.opId !== undefined) journaled.set(e.opId, said(e));
      } catch (err) {
        deps.logError?.('journal read', err);
      }
    }
    return journaled.get(opId);
  };
  const journalLine = (job: BulkJob, l: BulkLine, bulk: boolean, server?: Line | LineListItem) => {
    const outcome = journalOutcomeOf(l);
    if (!journal || !outcome) return;
    const opId = `${job.id}:${l.username}`;
    const detail =
      l.detail || bulk
        ? `${bulk ? `bulk ${job.id}` : ''}${bulk && l.detail ? ': ' : ''}${l.detail ?? ''}`
        : undefined;
    const saying = said({ outcome, deducedCredits: l.deducedCredits ?? null, charge: l.charge, detail });
    if (lastJournaled(opId) === saying) return;
    journaled.set(opId, saying);
    const bouquets = (l.body as { bouquets?: number[] } | undefined)?.bouquets;
    journal.append({
      opId,
      time: new Date(now()).toISOString(),
      target: job.target,
      ...(job.target === target.id ? { service: target.label } : {}),
      ...auditOf(job, l, outcome, server),
      operation: job.op,
      lineId: l.id.startsWith('new:') ? null : l.id,
      username: l.username,
      quotedCost: SPENDS.has(job.op) ? l.cost : null,
      estimate: job.op === 'extend',
      deducedCredits: l.deducedCredits ?? null,
      newBalance: l.newBalance ?? null,
      ...(l.charge ? { charge: l.charge } : {}),
      outcome,
      ...(detail !== undefined ? { detail } : {}),
      ...(bouquets?.length ? { bouquets } : {}),
    });
    emit({ type: 'journalWaiting', waiting: journal.waiting });
  };

  /**
   * A job still open when another starts loses its balance witness: the balance's fall from then
   * on includes the new job's charges, so it no longer says what the open lines cost. Its lines are
   * judged by the line alone after this, and a charge found that way is "amount unknown".
   */
  const closeBalanceWindows = (exceptId: string) => {
    for (const other of deps.intents?.open() ?? []) {
      if (other.id === exceptId || other.target !== target.id || other.balanceBefore == null) continue;
      deps.intents?.closeBalanceWindow(other.id);
    }
  };

  /**
   * A job with lines whose check saw no change yet is checked again in the background, backing off,
   * until every line is settled or its hold window has passed (one last check then gives the verdict).
   * What is still open after that stays in the intent log, for the next start and `linedesk pending`.
   */
  const watch = (job: BulkJob, attempt = 0) => {
    clearTimeout(watches.get(job.id));
    watches.delete(job.id);
    if (!deps.watch) return;
    const openLines = job.lines.filter((l) => OPEN.has(l.state));
    if (!openLines.length) return;
    const until = Math.max(...openLines.map((l) => heldUntil(job, l, { now: now(), holdMs }) ?? 0));
    // Past the window at the last check: that check gave its verdict; the rest waits for the next start.
    if (until === 0 && attempt > 0) return;
    const delay =
      until === 0
        ? watchDelay(attempt, deps.watchFirstMs)
        : Math.min(
            watchDelay(attempt, deps.watchFirstMs),
            Math.max(deps.watchFirstMs ?? 1_000, until - now()),
          );
    const timer = setTimeout(() => {
      watches.delete(job.id);
      void (async () => {
        const logged = deps.intents ? deps.intents.open().find((j) => j.id === job.id) : latest.get(job.id);
        if (!logged?.lines.some((l) => OPEN.has(l.state))) return;
        const before = new Map(logged.lines.map((l) => [l.id, l.state]));
        const final = await service.checkChange(logged, { background: true });
        emit({ type: 'checked', job: final });
        const settled = final.lines.filter(
          (l) => OPEN.has(before.get(l.id) ?? 'pending') && !OPEN.has(l.state),
        );
        if (settled.length)
          notify(
            `${final.op} ${settled
              .map((l) => l.username)
              .slice(0, 3)
              .join(
                ', ',
              )}${settled.length > 3 ? '…' : ''}: ${settled.length === 1 ? settled[0]!.detail : `${settled.filter((l) => l.state === 'done').length} applied, ${settled.filter((l) => l.state !== 'done').length} not`} (checked in the background)`,
            settled.some((l) => l.state === 'done') ? 'success' : 'info',
          );
        watch(final, attempt + 1);
      })().catch((err) => deps.logError?.('background check', err));
    }, delay);
    timer.unref?.();
    watches.set(job.id, timer);
  };

  const wire = (job: BulkJob, hooks: ChangeHooks | undefined) => {
    if (hooks?.bulk) asBulk.add(job.id);
    const bulk =
      job.lines.length > 1 ||
      (job.op !== 'create' && job.op !== 'trial' && (hooks?.bulk ?? asBulk.has(job.id)));
    let current = job;
    const onLine: EngineOptions['onLine'] = (l, server) => {
      // Written down first: if this throws on `sending`, the engine does not send.
      try {
        deps.intents?.line(job.id, forDisk(l));
      } catch (err) {
        deps.logError?.('intent log', err);
        if (l.state === 'sending') throw err;
      }
      current = {
        ...current,
        lines: current.lines.map((x) =>
          x.id === l.id || (x.id.startsWith('new:') && x.username === l.username) ? l : x,
        ),
      };
      latest.set(job.id, current);
      setUnsettled(l, job.id);
      if (FINAL.has(l.state) || l.state === 'unknown') journalLine(job, l, bulk, server);
      // The screens follow: the header's balance (each reply says the balance after its charge), the row.
      emit({ type: 'line', job, line: l, server });
      hooks?.onLine?.(l, server);
      hooks?.onProgress?.(current);
    };
    const finish = (final: BulkJob) => {
      latest.set(job.id, final);
      // Nothing of it is in flight from here now: ended, or free for another linedesk to check.
      if (!needsAttention(final)) {
        deps.intents?.end(job.id);
        latest.delete(job.id);
      } else deps.intents?.release(job.id);
      // Shutting down: no checks, reads or timers after the user left (the next start checks).
      if (interrupted) return final;
      watch(final);
      emit({ type: 'finished', job: final });
      return final;
    };
    return { onLine, finish };
  };

  /** The change as a job of one line: the same engine, intent log and journal as a bulk job. */
  const jobOf = (c: Change, cost: number | null): BulkJob => {
    const body = c.body as { username?: string } | null;
    const item: BulkLine = c.line
      ? { ...toBulkLine(c.line), cost }
      : {
          id: `new:${body?.username ?? ''}`,
          username: body?.username ?? '',
          body: c.body!,
          before: { expMs: null, connections: 0, enabled: false, isTrial: c.op === 'trial' },
          cost,
          after: {},
          state: 'pending',
        };
    return {
      id: randomUUID(),
      op: c.op,
      months: c.months,
      connections: c.connections,
      target: target.id,
      createdAt: new Date(now()).toISOString(),
      lines: [item],
    };
  };

  /** Runs (or checks) a job of one line, keeping the server's line and the error met. */
  const single = async (
    go: (hooks: ChangeHooks) => Promise<BulkJob>,
    hooks: ChangeHooks | undefined,
  ): Promise<SendResult> => {
    let error: unknown = null;
    let server: Line | LineListItem | undefined;
    const job = await go({
      ...hooks,
      onError: (l, err) => {
        error = err;
        hooks?.onError?.(l, err);
      },
      onLine: (l, s) => {
        if (s) server = s;
        hooks?.onLine?.(l, s);
      },
    });
    return resultOf(job, server, error);
  };
  const resultOf = (job: BulkJob, server?: Line | LineListItem, error: unknown = null): SendResult => ({
    job,
    line: job.lines[0]!,
    outcome: outcomeOf(job.lines[0]!),
    server,
    error,
    message: outcomeMessage(job, error, deps.watch === true),
  });

  const service: ChangeService = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    open: () => open,
    validate: (change, facts = {}) => validate(change, { ...facts, open }),
    validateJob,
    quote: (change, packages) => quoteChange(deps.client, change, packages),
    quoteLocally,
    plan(op, lines, params, packages) {
      const job: BulkJob = {
        id: randomUUID(),
        op,
        months: params.months,
        connections: params.connections,
        target: target.id,
        createdAt: new Date(now()).toISOString(),
        lines,
      };
      return { ...job, lines: planJob(job, packages, open, now()) };
    },
    async quoteJob(job, wanted) {
      if (job.op !== 'upgrade') return job;
      return {
        ...job,
        lines: await quoteUpgrades(deps.client, job.lines, job.connections, wanted, deps.logError),
      };
    },
    send(change, cost, hooks) {
      const job = jobOf(change, cost);
      hooks?.onStart?.(job);
      return single((h) => service.runChange(job, h), hooks);
    },
    recheck: (job, hooks) => single((h) => service.checkChange(job, h), hooks),
    resultOf: (job) => resultOf(job),
    journalWaiting: () => journal?.waiting ?? 0,

    async runChange(given, hooks) {
      // After shutdown nothing new leaves: the job is left as it is, for the next start.
      if (interrupted) return given;
      cancelled = false;
      // A job written before (a resume): the log is the truth, not the copy read at start — another
      // linedesk may have taken it since, or sent and settled its lines. Sent only by whoever holds it.
      let job = given;
      if (given.balanceBefore !== undefined && deps.intents) {
        const logged = deps.intents.open().find((j) => j.id === given.id);
        const who = logged ? takeJob(deps.intents, given.id, notify) : null;
        if (!logged || who) {
          if (!who?.said)
            notify(
              'Another linedesk resumed or settled this job meanwhile: nothing is sent from here (the journal has its outcome)',
              'warning',
            );
          return given;
        }
        job = logged;
      }
      // The balance just before the first request: the judge of what checked lines cost.
      // A resumed job keeps the balance it started from: the replies it already had are counted in it.
      let balanceBefore: number | null = job.balanceBefore ?? null;
      if (SPENDS.has(job.op) && job.balanceBefore === undefined) {
        try {
          const acct = await deps.client.me();
          balanceBefore = acct.credits;
          emit({ type: 'account', account: acct });
        } catch (err) {
          deps.logError?.('balance before a change', err);
        }
      }
      // Lines another job has an open change of are left to it: sent from here too, the line would be
      // changed twice, and the change seen would be either's. Another job still spending on this
      // account (another linedesk, or cron) moves the balance too: this job's window is closed from
      // the start, so none of its fall is counted as this job's.
      const { lines: others, spending: busy } = othersOfJob(job.id);
      const started: BulkJob = {
        ...job,
        balanceBefore: busy ? null : balanceBefore,
        lines: job.lines.map((l) =>
          l.state === 'pending' && others.has(l.id)
            ? {
                ...l,
                state: 'skipped',
                detail: `left alone: ${others.get(l.id)} has an open change of this line`,
                heldBack: true,
              }
            : l,
        ),
      };
      try {
        closeBalanceWindows(job.id);
        deps.intents?.begin({ ...started, lines: started.lines.map(forDisk) });
      } catch (err) {
        deps.logError?.('intent log', err);
        const why = `not sent: the intent log could not be written (${describeError(err)})`;
        return {
          ...started,
          lines: started.lines.map((l) =>
            l.state === 'pending' ? { ...l, state: 'failed', detail: why, provenNotApplied: true } : l,
          ),
        };
      }
      const { onLine, finish } = wire(started, hooks);
      running = runJob(started, {
        client: deps.client,
        windowClosed: windowClosedOf(started.id),
        concurrency: deps.bulkConcurrency ?? 4,
        now,
        holdMs,
        otherChanges: () => otherChanges(started.id),
        cancelled: () => cancelled,
        interrupted: () => interrupted,
        onLine,
        ...(deps.unreachableMs !== undefined ? { unreachableMs: deps.unreachableMs } : {}),
        ...(hooks?.onPause ? { onPause: hooks.onPause } : {}),
        ...(hooks?.onError ? { onError: hooks.onError } : {}),
        ...(deps.sleep ? { sleep: deps.sleep } : {}),
        ...(deps.retry ? { retry: deps.retry } : {}),
      });
      try {
        return finish(await running);
      } finally {
        running = null;
      }
    },

    async checkChange(given, hooks) {
      // Another linedesk checking or making it now: its verdict will do; two at once would not help.
      const who = deps.intents ? takeJob(deps.intents, given.id, notify) : null;
      if (who) {
        if (!who.said && !hooks?.background) notify(`${who.by} is checking this change now`, 'info');
        return given;
      }
      // The log is the truth (another job may have closed this one's balance window since).
      const job = deps.intents?.open().find((j) => j.id === given.id) ?? given;
      const { onLine, finish } = wire(job, hooks);
      return finish(
        await checkJob(job, {
          client: deps.client,
          onLine,
          windowClosed: windowClosedOf(job.id),
          now,
          holdMs,
          otherChanges: () => otherChanges(job.id),
          interrupted: () => interrupted,
          ...(deps.sleep ? { sleep: deps.sleep } : {}),
        }),
      );
    },

    cancel() {
      cancelled = true;
    },

    async recoverIntents() {
      const intents = deps.intents;
      await adoptForeign();
      if (intents) holdDamagedIntents(intents, notify, hold);
      const all: BulkJob[] = [];
      for (const job of intents?.open() ?? []) {
        if (job.target !== target.id) continue;
        // A job another linedesk is still making is its own: judged from here, a request still in
        // flight looks "not applied". Its unfinished lines are left alone until it is gone.
        const who = intents ? takeJob(intents, job.id, notify) : null;
        if (who === null) all.push(job);
        else holdLines(job, who.by, !who.said);
      }
      // The journal is written after the intent log: a process stopped between the two left settled
      // lines the journal lacks. Journal them again (one entry per operation: readers keep the last).
      for (const job of all) {
        for (const l of job.lines)
          if (FINAL.has(l.state) || l.state === 'unknown') journalLine(job, l, job.lines.length > 1);
        if (!needsAttention(job)) intents?.end(job.id);
      }
      const jobs = all.filter(needsAttention);
      if (!jobs.length) return [];
      // Never sent is known from the log before any check: said at once, never "0 never sent".
      emit({
        type: 'recovery',
        checking: true,
        jobs: jobs.map((job) => ({ job, unsent: job.lines.filter((l) => l.state === 'pending').length })),
      });
      const checked: Recovered[] = [];
      for (const job of jobs) {
        for (const l of job.lines) setUnsettled(l, job.id);
        const final = job.lines.some((l) => OPEN.has(l.state)) ? await service.checkChange(job) : job;
        checked.push({ job: final, unsent: final.lines.filter((l) => l.state === 'pending').length });
      }
      emit({ type: 'recovery', checking: false, jobs: checked });
      await findUnsent(checked);
      return checked;
    },

    setAside(jobs) {
      // Unsent lines of an interrupted job are set aside; unknown ones stay in the log for next time.
      for (const { job } of jobs) {
        if (!job.lines.some((l) => OPEN.has(l.state))) deps.intents?.end(job.id);
        else deps.intents?.release(job.id); // not resumed from here: another linedesk may check it
      }
    },

    settleByHand(jobId, lineId, verdict) {
      const job = deps.intents ? deps.intents.open().find((j) => j.id === jobId) : latest.get(jobId);
      const line = job?.lines.find((l) => (l.id === lineId || l.username === lineId) && OPEN.has(l.state));
      if (!job || !line) return null;
      if (deps.intents && !deps.intents.claim(jobId)) return null;
      const at = new Date(now()).toISOString();
      const settled: BulkLine =
        verdict === 'applied'
          ? {
              ...line,
              state: 'done',
              detail: `applied: settled by the user at ${at} (no proof from the service); charged, amount unknown`,
              ...(SPENDS.has(job.op) ? { charge: 'unknown' as const } : {}),
            }
          : {
              ...line,
              state: 'failed',
              detail: `not applied: settled by the user at ${at} (no proof from the service)`,
              provenNotApplied: true,
            };
      const { onLine, finish } = wire(job, undefined);
      onLine(settled);
      const final = { ...job, lines: job.lines.map((l) => (l === line ? settled : l)) };
      return finish(final);
    },

    async shutdown(graceMs) {
      for (const t of watches.values()) clearTimeout(t);
      watches.clear();
      // An interruption, not the user's cancel: the lines never sent stay `pending` in the intent log,
      // so the next start offers them for resuming (a cancel would record them `cancelled`, never
      // offered again).
      interrupted = true;
      const job = running;
      if (job)
        await Promise.race([job.catch(() => null), new Promise((r) => setTimeout(r, graceMs).unref?.())]);
      journal?.flush();
      journal?.stop();
    },
  };
  return service;
}

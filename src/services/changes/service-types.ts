/**
 * The change service's vocabulary: what it is given (ChangeServiceDeps), what it offers
 * (ChangeService), the hooks a caller follows a job by, and the events it tells front-ends.
 */
import type { Account, Line, LineListItem, Package } from '../../api/contract';
import type { RetryPolicy } from '../../api/retry';
import type { BulkJob, BulkLine } from '../../domain/bulk';
import type { Refusal } from '../../domain/change-rules';
import type { ServiceClient } from '../client';
import type { EngineOptions } from './engine';
import type { Notify } from './intent-damage';
import type { ForeignJob, IntentLog, LogRead, Unreadable } from './intent-log';
import type { Journal } from './journal';
import type { OpenLines } from './open-lines';
import type { SendResult } from './outcome';
import type { QuoteResult } from './quote';
import type { MarkAgainLookup } from './recovery';
import type { Change, Facts, validateJob } from './validate';

/** A job found open in the intent log at start, after its unknown lines were checked. */
export interface Recovered {
  readonly job: BulkJob;
  /** Lines never sent when the process stopped (not cancelled): offered for resuming. */
  readonly unsent: number;
}

/**
 * What a settle by hand did: the job as settled, or why nothing was settled, as the settle found it
 * (the log may change right after: a second read would tell another reason).
 * - `held`: another linedesk holds the job now (`by` names it); try again when it ends.
 * - `in-use`: this process sends or checks the job now; try again once that ends.
 * - `settled`: the line is settled already (`how`: its job ended, or its line was settled meanwhile).
 * - `gone`: the job, or its line, is no longer in the intent log (ended and dropped, or set aside).
 * - `unreadable`: the log cannot be read for the job (`path`, `problem`, `cause`: intent-damage.ts
 *   says it and what to do by them).
 */
export type Settled =
  | { readonly ok: true; readonly job: BulkJob }
  | { readonly ok: false; readonly reason: 'held'; readonly by: string }
  | { readonly ok: false; readonly reason: 'in-use' }
  | { readonly ok: false; readonly reason: 'settled'; readonly how: 'job ended' | 'line settled' }
  | { readonly ok: false; readonly reason: 'gone' }
  | ({ readonly ok: false; readonly reason: 'unreadable' } & Omit<Unreadable, 'kind'>);

/** Why a settle by hand settled nothing (`Settled` without its success). */
export type NotSettled = Exclude<Settled, { readonly ok: true }>;

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
    };

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
  /** A bulk job (even of one line): the journal says so; its lines are read again before it sends. */
  readonly bulk?: boolean;
  /**
   * When the job's lines were read from the server (epoch ms), if just now (a script's lookup): a bulk
   * job whose lines were read within a minute is not read again before it sends.
   */
  readonly linesReadAt?: number;
  /**
   * How a single change's line was had, for its words when it changed since: a screen showed it
   * ('shown', the default), a script looked it up ('looked up').
   */
  readonly lineHad?: 'shown' | 'looked up';
  /** How many lines the account has, when known (its last read): how the lines are read again costs least. */
  readonly linesTotal?: number | undefined;
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
  /**
   * Runs a job through the one change engine: intent first, then requests, outcomes, journal. A job of
   * an offer (a resume) is taken, then run from the intent log's version of it, never the copy given.
   */
  runChange(job: BulkJob, hooks?: ChangeHooks): Promise<BulkJob>;
  /** Checks a job's unknown lines with the server again (never re-sends). */
  checkChange(job: BulkJob, hooks?: ChangeHooks): Promise<BulkJob>;
  /**
   * Stops scheduling the requests of the job `jobId` (its runs now: one started later is not
   * cancelled); those in flight finish, and no other job is touched.
   */
  cancel(jobId: string): void;
  /**
   * At start: open intents of this service are checked before anything else. `read`: the caller's one
   * read of the log (`readLog`), asked once foreign jobs were moved in, so the caller goes on by what
   * the recovery read (never reading it again); a read that failed is the caller's to say.
   */
  recoverIntents(read?: () => LogRead): Promise<readonly Recovered[]>;
  /**
   * The resume offer's check again: its jobs' unknown lines checked with the server again (never
   * re-sent), with the recovery's events (checking, then checked) as at start. Only that: jobs under
   * another key are not looked up again, damaged files not said again. A job no longer open in the
   * intent log (settled since, maybe by another linedesk) is given back as the log keeps it (its
   * settled record), else as given.
   */
  recheckRecovered(jobs: readonly Recovered[]): Promise<readonly Recovered[]>;
  /**
   * Recovered jobs' lines to be marked again (`toMarkAgain`: never sent, or left marked to review),
   * looked up in one lookup so a mark holds each as the server has it now: found, proven absent, not
   * reached, or the lookup failed. `whole`: the whole list may be read (a check the user asked for);
   * else at most 20 pages (at start). Stopped by a shutdown. Marks are the screens': a command has none.
   */
  lookUpToMarkAgain(ids: readonly string[], opts: { readonly whole: boolean }): Promise<MarkAgainLookup>;
  /**
   * The recovery's "set aside" (Esc) of these jobs (those the offer showed), each taken, then read from
   * the intent log: a job with no unknown line is closed (its journal entries stay; its lines never
   * sent are not offered again); one that still has unknown lines, or that the log cannot be read for,
   * is released as it is, so the next start offers it again, its lines never sent with it. One another
   * linedesk holds now, or this process runs or checks, is left to it; one ended or gone since is
   * left alone.
   */
  setAside(jobIds: readonly string[]): void;
  /**
   * The offer's jobs not resumed when one was (Enter resumes one job): released as they are, nothing
   * ended, so the next start offers them again (another linedesk may check them meanwhile).
   */
  leaveForNextStart(jobs: readonly Recovered[]): void;
  /**
   * Those jobs (the offer's copies) offered again in this session (the resumed one has ended): each as
   * the intent log has it now, taken again (one another linedesk took meanwhile is left to it), checked
   * and offered with the recovery's events, as at start; one that needs nothing any more is journaled
   * and ended, not offered. One the log cannot be read for (its directory, its file) or no longer has
   * is said, with the path, and left open in the log as it is: the next start offers it. Nothing while
   * shutting down.
   */
  offerAgain(jobs: readonly Recovered[]): Promise<readonly Recovered[]>;
  /**
   * The user settles an open line by hand: recorded as settled by the user (`settledAfterUnknown: 'by
   * hand'`, never as the service's proof); the line is free. A verdict the intent log did not keep (the
   * disk refused its record, and the job's end or release) is given back with its line `keptOnDisk`:
   * the log still has it open, so it stays held and the next start checks it again (never "free").
   * Nothing settled says why, from this settle's own read (`Settled`): a caller never reads the log
   * again to guess it. Throws only when the disk refuses the take (the owner file's path named).
   */
  settleByHand(jobId: string, lineId: string, verdict: 'applied' | 'not applied'): Settled;
  /**
   * The process is going away: stop scheduling, wait at most `graceMs` for requests in flight. Not a
   * cancel: the lines never sent stay pending.
   */
  shutdown(graceMs: number): Promise<void>;
}

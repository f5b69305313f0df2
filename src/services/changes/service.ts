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
import type { Line, LineListItem } from '../../api/contract';
import { type BulkJob, type BulkLine, FINAL, OPEN, retryable, SPENDS, toBulkLine } from '../../domain/bulk';
import { counted, firstNames, linesNamed } from '../../domain/format';
import { DEFAULT_HOLD_MS, heldUntil } from '../../domain/proof';
import { describeError } from '../describe-error';
import { checkJob, type EngineOptions, runJob } from './engine';
import { needsReading, notFoundAgain, readAgain } from './fresh-lines';
import {
  holdDamagedIntents,
  type Notify,
  othersUntold,
  sayNotChecked,
  sayOthersUntold,
  takeJob,
  unreadableLog,
} from './intent-damage';
import {
  BeginNotUndone,
  diskFix,
  type LoggedJob,
  logFailed,
  loggedJobs,
  needsAttention,
  readLog,
  type Unreadable,
  unreadableOf,
  writeRefused,
} from './intent-log';
import { journalRecorder } from './journal-record';
import type { OpenLines } from './open-lines';
import { outcomeMessage, outcomeOf, type SendResult } from './outcome';
import { appliedElsewhere, othersOf } from './ownership';
import { planJob, quoteChange, quoteLocally, quoteUpgrades } from './quote';
import { adoptForeign, lookUpToMarkAgain, recoveredOf } from './recovery';
import type {
  ChangeEvent,
  ChangeHooks,
  ChangeService,
  ChangeServiceDeps,
  NotSettled,
  Recovered,
} from './service-types';
import { type Change, validate, validateJob } from './validate';

/** A job's id; node:crypto is loaded when a change is made, not when a command starts (≈ 8 ms). */
const newJobId = () => process.getBuiltinModule('node:crypto').randomUUID();

export type { ChangeEvent, ChangeHooks, ChangeService, ChangeServiceDeps, NotSettled, Recovered };

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

/**
 * A job's never-sent lines when the intent log could not take a record it needs before sending.
 * Retryable only once their job's file is ended (`wire`'s `notRetried`: else the file offers them).
 * `fresh`: the job's begin was refused, so nothing of it is on disk (`writeRefused`).
 */
const notLogged = (err: unknown, fresh = false) =>
  ({
    state: 'failed',
    detail: `not sent: the intent log could not be written ${writeRefused(err, fresh)}`,
    provenNotApplied: true,
    notSent: true,
    refusedHere: true,
  }) as const;

/**
 * A new job's never-sent lines when its begin failed and its file may stay (`BeginNotUndone`): the
 * next start offers them from it, so they are not proven "not applied" here, and never retried from
 * the results (they would then be in two jobs). Nothing left this machine.
 */
const notUndone = (err: BeginNotUndone) =>
  ({
    state: 'failed',
    detail: `not sent: the intent log could not be written ${writeRefused(err.cause)}; its file ${err.path} could not be taken back out (${err.left}): the next start offers these lines again`,
    notSent: true,
    refusedHere: true,
  }) as const;

/** A line the user cancelled before it was sent (a retry may send it). */
const CANCELLED = { state: 'cancelled', detail: 'cancelled before it was sent' } as const;

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
  /**
   * The user's cancel, one per run: each run of a job (`runChange`) has its own, from its start to its
   * end, and `cancel(jobId)` reaches the runs of that job only. A run started meanwhile does not undo
   * it, and a cancel of another job (a single change run alongside) does not stop this one.
   */
  const cancels = new Map<string, Set<{ cancelled: boolean }>>();
  /** The process is going away (shutdown): not the user's cancel; what was never sent stays pending. */
  let interrupted = false;
  /** The jobs sending now (the engine's runs): a shutdown gives each its grace to end. */
  const running = new Set<Promise<BulkJob>>();
  /** Jobs checked in the background while their hold window runs (the app only: `deps.watch`). */
  const watches = new Map<string, ReturnType<typeof setTimeout>>();
  /**
   * Jobs this process is using now, one user at a time (a run or a resume, a check in the foreground
   * or in the background, the offer's check): each from its take (`take`, which claims the job's owner
   * file too) to its `letBe`. The owner file alone cannot tell them apart (a claim this process holds
   * counts as its own), so without this a background check of a job being resumed would take it too,
   * and its end release the owner file while the resume still sends: another linedesk could then take
   * the job and send its lines again. A user in the background skips a job in use; one in the
   * foreground waits for it (`takeWhenFree`); a settle by hand or a set aside, which cannot wait, leave
   * it to its user. Only the user releases or ends the job (`finish`, `letGo`).
   */
  const inUse = new Map<string, { readonly done: Promise<void>; readonly free: () => void }>();
  /** This process uses the job from now (it holds it, or it is its own new job). */
  const use = (id: string) => {
    let free = () => {};
    const done = new Promise<void>((r) => {
      free = r;
    });
    inUse.set(id, { done, free });
  };
  /** This process stops using the job (after its release or end, if any). */
  const letBe = (id: string) => {
    const u = inUse.get(id);
    inUse.delete(id);
    u?.free();
  };
  /**
   * Jobs the offer holds (`takeToOffer` took them; a job with nothing to check stays taken while the
   * offer shows it), until released, ended, or taken by a run (a resume). Not in use (`inUse`): a
   * settle by hand may still claim one (a claim this process holds counts as its own), but settling
   * nothing it never releases it: the owner file stays the offer's.
   */
  const offerHolds = new Set<string>();
  /** The last state of each job this process ran or checked, for a log-less service (tests). */
  const latest = new Map<string, BulkJob>();
  /** Jobs started as bulk jobs by this process: their checks are journaled as such. */
  const asBulk = new Set<string>();
  /**
   * Jobs this service offered for resuming (at start, or again): a resume of one goes by the log's
   * version, even when its record has no balance window (an earlier version's file).
   */
  const offered = new Set<string>();
  /**
   * Jobs ended while their journal entry waited on a failed write: their intent stays open until the
   * entry is on disk, so another linedesk reading the balance meanwhile sees a change of this account
   * open (not a fall no journal explains: drift), and a run that stops first leaves it for the next
   * start to journal (recoverIntents), not lost with this process's memory.
   */
  const unjournaled = new Set<string>();
  const endJournaled = () => {
    for (const id of unjournaled) {
      try {
        deps.intents?.end(id);
      } catch (err) {
        deps.logError?.('intent log', err);
        sayNotLetGo(err, id, 'end');
      }
    }
    unjournaled.clear();
  };
  const journal = deps.journal
    ? journalRecorder(
        { journal: deps.journal, now, target, logError: deps.logError },
        {
          waiting: (waiting) => {
            if (waiting === 0) endJournaled();
            emit({ type: 'journalWaiting', waiting });
          },
          failed: (err, waiting) => {
            emit({ type: 'journalWaiting', waiting });
            const fix = diskFix(err as NodeJS.ErrnoException | null, 'write');
            notify(
              `Could not write the journal (${describeError(err)}): ${waiting} entr${waiting === 1 ? 'y waits' : 'ies wait'}; retrying${fix ? `: ${fix}` : ''}. What happened to each line is on screen meanwhile, and a change that was sent stays in the intent log until the journal has it.`,
              'error',
            );
          },
        },
      )
    : null;
  const journalLine: NonNullable<typeof journal>['record'] = (...a) => journal?.record(...a);
  /**
   * The one rule of a job's end, for a run's end (`finish`) and a let go (`letGo`: the recovery's end
   * of a settled job it journaled again, a set aside): the job's file is ended only once the journal
   * has every entry. While one waits on a failed write the job stays open (`unjournaled`, ended by
   * `endJournaled` once the journal takes it), so a run that stops first leaves it for the next start
   * to journal: ended before, its entry would live only in this process's memory. An end the disk
   * refuses is thrown, for the caller to say.
   */
  const endOnceJournaled = (jobId: string): 'ended' | 'waits' => {
    if ((journal?.waiting() ?? 0) > 0) {
      unjournaled.add(jobId);
      return 'waits';
    }
    deps.intents?.end(jobId);
    return 'ended';
  };
  const setUnsettled = (l: BulkLine, jobId: string) => {
    const has = open.unsettled.has(l.id);
    const isOpen = OPEN.has(l.state);
    if (has === isOpen) return;
    const unsettled = new Map(open.unsettled);
    if (isOpen) unsettled.set(l.id, jobId);
    else unsettled.delete(l.id);
    setOpen({ unsettled, held: open.held });
  };

  /** A job the log no longer has open: the lines it held (its open changes) are free again. */
  const letGoLinesOf = (jobId: string) => {
    const unsettled = new Map([...open.unsettled].filter(([, by]) => by !== jobId));
    if (unsettled.size !== open.unsettled.size) setOpen({ unsettled, held: open.held });
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

  /** A path of the intent log that cannot be read, and why (its typed cause: what the user can do). */
  type Untold = Unreadable;
  /**
   * The intent log's open jobs, as the questions about other jobs read them. `untold`: the log cannot
   * be read (its directory cannot be listed or is gone, a job's file does not read, or reads but its
   * job record does not): what the other jobs hold cannot be told, never read as "none" (a file whose
   * job cannot be told may be a job of this account in flight: its lines being sent, its charges
   * moving the balance). Each question then takes its cautious answer: no
   * balance window opened, an open one counted closed, every line's change possibly another's; and a
   * question with none (may another job's window be open, its change of a line in flight?) refuses to
   * send. `expected`: this job is on disk, so a directory gone is unreadable, not an empty log.
   */
  type OpenRead = { readonly jobs: BulkJob[]; readonly untold?: Untold };
  /** A read of the log that threw: logged, and said by the path it names (else the log's). */
  const untoldOf = (err: unknown): Untold => {
    deps.logError?.('intent log', err);
    return logFailed(err);
  };
  const readOpen = (expected = true): OpenRead => {
    const intents = deps.intents;
    if (!intents) return { jobs: [] };
    try {
      if (!intents.openWithDamage) return { jobs: intents.open() };
      const { jobs, damage } = intents.openWithDamage(expected);
      // A damaged file whose job reads is among `jobs` (its lines that may have been sent `unknown`).
      const bad = damage.find((d) => d.directory || d.unread || d.jobId === null);
      return bad ? { jobs, untold: unreadableOf(bad) } : { jobs };
    } catch (err) {
      return { jobs: [], untold: untoldOf(err) };
    }
  };
  /** The jobs ended lately (`IntentLog.settled`); a log that cannot be read for them is untold. */
  const readEnded = (): OpenRead => {
    try {
      return { jobs: deps.intents?.settled?.() ?? [] };
    } catch (err) {
      return { jobs: [], untold: untoldOf(err) };
    }
  };
  /**
   * The log's version of each job (`loggedJobs`: open, ended, gone, or unreadable with the path). A
   * service without a log has no version but the one `copy` gives (gone when none).
   */
  const versionsOf = <J extends { readonly id: string }>(
    jobs: readonly J[],
    copy: (job: J) => BulkJob | undefined,
  ): ReadonlyMap<string, LoggedJob> => {
    if (deps.intents)
      return loggedJobs(
        deps.intents,
        jobs.map((j) => j.id),
      );
    return new Map(
      jobs.map((j): [string, LoggedJob] => {
        const job = copy(j);
        return [j.id, job ? { kind: 'open', job } : { kind: 'gone' }];
      }),
    );
  };
  /**
   * Jobs (and paths) whose check was told the log cannot be read: said once, not each round; a job's
   * are forgotten once the log reads whole for it again (`roundOf`), so a later failure is said.
   */
  const untoldSaid = new Set<string>();
  const sayUntold = (job: BulkJob, untold: Untold) => {
    const key = `${job.id}\n${untold.path}`;
    if (untoldSaid.has(key)) return;
    untoldSaid.add(key);
    sayOthersUntold(job, untold.path, untold.problem, notify, untold.cause, untold.code);
  };
  const untoldRead = (job: BulkJob) => {
    for (const key of untoldSaid) if (key.startsWith(`${job.id}\n`)) untoldSaid.delete(key);
  };
  /** A new job's never-sent lines when the intent log cannot be read before sending. */
  const notRead = (untold: Untold) =>
    ({
      state: 'failed',
      detail: `not sent: ${unreadableLog(untold.path, untold.problem, untold.cause)}; nothing charged`,
      provenNotApplied: true,
      notSent: true,
      refusedHere: true,
    }) as const;

  /** What the other open jobs of this account hold (ownership.ts), from one read of the intent log. */
  const othersOfJob = (jobId: string, jobs: readonly BulkJob[]) =>
    othersOf(jobs, jobId, target.id, (id) => deps.intents?.heldElsewhere(id) ?? null);

  /**
   * What a settle round asks about other jobs (the engine's `otherChanges`, `windowClosed`,
   * `appliedLately`), answered from one read of the log a round (its open jobs, then the ended ones):
   * - `touched`: the lines another job has an open change of, or applied since this job began (its
   *   charge may be in this job's balance window);
   * - `closed`: the log no longer shows this job's balance window open (another job closed it, perhaps
   *   from another process, or the job is no longer open there);
   * - `lately`: the lines other jobs applied at any time (asked once the window is closed: this job's
   *   "before" of such a line may predate that change).
   * A log that cannot be read (its directory, a job's file, the ended jobs) rules out nothing: every
   * line may be another's and the window counts closed. This is the one place that rule is held; it
   * is said once per job and path (`sayOthersUntold`), and forgotten once the log reads whole again.
   */
  type Round = {
    readonly touched: ReadonlyMap<string, string>;
    readonly closed: boolean;
    readonly lately: ReadonlyMap<string, string>;
  };
  const readRound = (job: BulkJob): Round => {
    const open = readOpen();
    const ended = open.untold ? open : readEnded();
    const untold = open.untold ?? ended.untold;
    if (untold) {
      sayUntold(job, untold);
      const every = new Map(job.lines.map((l) => [l.id, othersUntold(untold.path)]));
      return { touched: every, closed: true, lately: every };
    }
    untoldRead(job);
    const jobs = [...open.jobs, ...ended.jobs];
    const touched = new Map<string, string>();
    for (const [id, who] of othersOfJob(job.id, open.jobs).lines)
      touched.set(id, `${who} has an open change of this line`);
    // From the job's planning on (a date that does not read: every change counts).
    const since = Date.parse(job.createdAt);
    for (const [id, what] of appliedElsewhere(
      jobs,
      job.id,
      target.id,
      Number.isNaN(since) ? undefined : since,
    ))
      if (!touched.has(id)) touched.set(id, what);
    const own = open.jobs.find((j) => j.id === job.id);
    return {
      touched,
      closed: deps.intents !== undefined && (!own || own.balanceBefore === null),
      lately: appliedElsewhere(jobs, job.id, target.id),
    };
  };
  /**
   * The round's answers, read once: the engine asks its three questions in one synchronous stretch, so
   * the read is kept only until that ends (a microtask), and no later round asks a stale copy.
   */
  const rounds = new Map<string, Round>();
  const roundOf = (job: BulkJob): Round => {
    const kept = rounds.get(job.id);
    if (kept) return kept;
    const round = readRound(job);
    rounds.set(job.id, round);
    queueMicrotask(() => {
      if (rounds.get(job.id) === round) rounds.delete(job.id);
    });
    return round;
  };
  /** The engine's questions about other jobs, for a run or a check of `job`. */
  const othersAsked = (job: BulkJob) => ({
    otherChanges: () => roundOf(job).touched,
    windowClosed: () => roundOf(job).closed,
    appliedLately: () => roundOf(job).lately,
  });

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
   * A job still open when another starts loses its balance witness: the balance's fall from then
   * on includes the new job's charges, so it no longer says what the open lines cost. Its lines are
   * judged by the line alone after this, and a charge found that way is "amount unknown".
   */
  const closeBalanceWindows = (exceptId: string, read = readOpen()): Untold | undefined => {
    // A log that cannot be read hides which windows are open: none can be closed, so nothing is sent
    // (the caller's refusal): a window left open would count this job's charges as that job's.
    if (read.untold) return read.untold;
    for (const other of read.jobs) {
      if (other.id === exceptId || other.target !== target.id) continue;
      // A window not open yet is closed too when another linedesk is starting its job now: the balance
      // it opens with may be read after this job's first charge (a later balance record leaves it so).
      const opening =
        other.balanceBefore === null &&
        other.lines.some((l) => l.state === 'pending') &&
        deps.intents?.heldElsewhere(other.id) != null;
      if (other.balanceBefore == null && !opening) continue;
      deps.intents?.closeBalanceWindow(other.id);
    }
    return undefined;
  };

  /**
   * Opens a new job's balance window (it was begun with none): the balance read now, just before its
   * first request, written to the intent log. It stays closed (null: its lines judged by the line
   * alone) when another job of the account is spending (its requests move the balance too), the
   * balance cannot be read, or the log cannot take the record. Spending is asked before the read (a
   * job whose last request is in flight then may be charged after it, and have ended by the record);
   * a job beginning after that closes this window itself (`closeBalanceWindows`, open or about to
   * open). Asked again once the record is on disk, closing the window again: a linedesk of an earlier
   * version closes only open windows. Throws when the window cannot be closed again (the log would
   * show it open): nothing is sent. A log that cannot be read may hide a job spending: no window
   * (the refusal to send that follows says it: `closeBalanceWindows`, which reads it again). `read`:
   * the log as it read last, whole, when nothing was awaited after it (which windows to close asks it).
   */
  const openWindow = async (job: BulkJob): Promise<{ job: BulkJob; read?: OpenRead }> => {
    const first = readOpen();
    if (first.untold) return { job };
    if (othersOfJob(job.id, first.jobs).spending) return { job, read: first };
    let balance: number;
    try {
      const acct = await deps.client.me();
      balance = acct.credits;
      emit({ type: 'account', account: acct });
    } catch (err) {
      deps.logError?.('balance before a change', err);
      return { job };
    }
    try {
      deps.intents?.openBalanceWindow(job.id, balance);
    } catch (err) {
      deps.logError?.('intent log', err);
      return { job };
    }
    const again = readOpen();
    if (!again.untold && !othersOfJob(job.id, again.jobs).spending)
      return { job: { ...job, balanceBefore: balance }, read: again };
    deps.intents?.closeBalanceWindow(job.id);
    return again.untold ? { job } : { job, read: again };
  };

  /**
   * A job with lines whose check saw no change yet is checked again in the background, backing off,
   * until every line is settled or its hold window has passed (one last check then gives the verdict).
   * What is still open after that stays in the intent log, for the next start and `linedesk pending`.
   * A check the log cannot be read for (its directory, the job's file) is not made: said once, with
   * the path, and tried again at the next interval, past the window too, until one reads (`refused`).
   */
  const watch = (job: BulkJob, attempt = 0, refused = false) => {
    clearTimeout(watches.get(job.id));
    watches.delete(job.id);
    // After shutdown nothing more is checked.
    if (!deps.watch || interrupted) return;
    const openLines = job.lines.filter((l) => OPEN.has(l.state));
    if (!openLines.length) return;
    const until = Math.max(...openLines.map((l) => heldUntil(job, l, { now: now(), holdMs }) ?? 0));
    // Past the window at the last check: that check gave its verdict; the rest waits for the next start.
    if (until === 0 && attempt > 0 && !refused) return;
    const delay =
      until === 0
        ? watchDelay(attempt, deps.watchFirstMs)
        : Math.min(
            watchDelay(attempt, deps.watchFirstMs),
            Math.max(deps.watchFirstMs ?? 1_000, until - now()),
          );
    const timer = setTimeout(() => {
      watches.delete(job.id);
      // In use from here (a resume, a check asked for): its user watches it again when it ends.
      if (inUse.has(job.id)) return watch(job, attempt + 1);
      void (async () => {
        // Read before the job is taken, so a log that cannot be read (or no longer has the job) is not
        // written to at each interval; the check reads it again once it holds the job (`checkChange`),
        // the version it writes verdicts from.
        const read = versionsOf([job], (j) => latest.get(j.id)).get(job.id);
        if (read?.kind === 'unreadable') {
          if (!refused) sayNotChecked([{ job, logged: read }], notify);
          watch(job, attempt + 1, true);
          return;
        }
        const logged = read?.kind === 'open' ? read.job : undefined;
        if (!logged?.lines.some((l) => OPEN.has(l.state))) return;
        const before = new Map(logged.lines.map((l) => [l.id, l.state]));
        const final = await service.checkChange(logged, { background: true });
        emit({ type: 'checked', job: final });
        const settled = final.lines.filter(
          (l) => OPEN.has(before.get(l.id) ?? 'pending') && !OPEN.has(l.state),
        );
        if (settled.length)
          notify(
            `${final.op} ${firstNames(settled.map((l) => l.username))}: ${settled.length === 1 ? settled[0]!.detail : `${settled.filter((l) => l.state === 'done').length} applied, ${settled.filter((l) => l.state !== 'done').length} not`} (checked in the background)`,
            settled.some((l) => l.state === 'done') ? 'success' : 'info',
          );
        // Taken meanwhile (a resume waited for this check): its user watches it again when it ends.
        if (!inUse.has(job.id)) watch(final, attempt + 1);
      })().catch((err) => deps.logError?.('background check', err));
    }, delay);
    timer.unref?.();
    watches.set(job.id, timer);
  };

  /**
   * The open jobs of this account to offer (at start, and the jobs a resume left waiting): each taken
   * from here, else its lines held for whoever has it (a job another linedesk is still making is its
   * own: judged from here, a request still in flight looks "not applied"). The journal is written
   * after the intent log: a process stopped between the two left settled lines the journal lacks, so
   * a taken job's settled and unknown lines are journaled again (one entry per operation: readers keep
   * the last), and a job that needs nothing any more is ended once those entries are written
   * (`letGo` → `endOnceJournaled`: while the journal refuses writes it stays open, said). Each is journaled from the log's version
   * read once taken (the versions given were read before: a line may have been settled in between);
   * one ended or gone since is let go, one that no longer reads is offered as given (its check says
   * so), and one this process uses now (a check of it in the background) is offered as given, left to
   * that check (the offer's check waits for it). Returns those still needing attention.
   */
  const takeToOffer = (open: readonly BulkJob[]): BulkJob[] => {
    const intents = deps.intents;
    const taken: BulkJob[] = [];
    const asGiven = new Set<string>();
    for (const job of open) {
      if (job.target !== target.id) continue;
      if (inUse.has(job.id)) {
        taken.push(job);
        asGiven.add(job.id);
        continue;
      }
      const who = intents ? takeJob(intents, job.id, notify) : null;
      if (who === null) {
        taken.push(job);
        if (intents) offerHolds.add(job.id);
      } else holdLines(job, who.by, !who.said);
    }
    const logged = versionsOf(
      taken.filter((j) => !asGiven.has(j.id)),
      (j) => j,
    );
    const offer: BulkJob[] = [];
    for (const given of taken) {
      const l = logged.get(given.id);
      if (asGiven.has(given.id) || l?.kind === 'unreadable') {
        offer.push(given);
        continue;
      }
      if (l?.kind !== 'open') {
        // Ended or gone since (settled, or set aside, elsewhere): nothing of it to offer.
        letGo(given, 'release', true);
        letGoLinesOf(given.id);
        continue;
      }
      const job = l.job;
      for (const x of job.lines)
        if (FINAL.has(x.state) || x.state === 'unknown') journalLine(job, x, job.lines.length > 1);
      if (needsAttention(job)) offer.push(job);
      else letGo(job, 'end');
    }
    return offer;
  };

  /**
   * The resume offer's check (at start, and its check again): the jobs said at once (never sent is
   * known from the log before any check: never "0 never sent"), their open lines checked with the
   * server one job after another (never re-sent), then the offer told where each stands. The jobs in
   * `refused` (the log has no version of them to check from: `recheckRecovered`) stay offered as they
   * are, unchecked. Each job is taken just before its check (once this process no longer uses it: a
   * background check of it ends first), then read: it is checked from the version read while this
   * process holds it (nothing else writes it meanwhile), never one read before the checks of the jobs
   * before it (a verdict written since would be written over).
   */
  const checkOffered = async (
    jobs: readonly BulkJob[],
    refused: ReadonlySet<string> = new Set(),
  ): Promise<Recovered[]> => {
    for (const job of jobs) offered.add(job.id);
    emit({ type: 'recovery', checking: true, jobs: jobs.map(recoveredOf) });
    const checked: Recovered[] = [];
    // The check always ends, so the offer's keys come back: one that throws part way (the intent
    // log's file cannot be written, say) is said, with its file, and the jobs not reached are offered
    // as the log had them (their open lines still unknown, checked again with r or at the next start).
    try {
      for (const job of jobs) {
        // Held while checked, and still when refused: no new change of a line whose outcome may be unknown.
        for (const l of job.lines) setUnsettled(l, job.id);
        if (refused.has(job.id) || !job.lines.some((l) => OPEN.has(l.state)) || !(await takeWhenFree(job))) {
          checked.push(recoveredOf(job));
          continue;
        }
        try {
          const logged = versionsOf([job], (j) => j).get(job.id);
          checked.push(recoveredOf(await checkHeld(job, logged)));
        } finally {
          letBe(job.id);
        }
      }
    } catch (err) {
      deps.logError?.('check of the changes left open', err);
      notify(
        `The check of the changes left open stopped (${describeError(err)}): what it did not reach is still unknown`,
        'error',
      );
      for (const job of jobs.slice(checked.length)) checked.push(recoveredOf(job));
    } finally {
      emit({ type: 'recovery', checking: false, jobs: checked });
    }
    return checked;
  };

  /**
   * Takes a job to check it (no other linedesk writes it while this process holds it); false when
   * another has it, said unless in the background (or said already: a disk that refused the take).
   */
  const take = (job: { readonly id: string }, background = false): boolean => {
    // In use from here (a run, another check): its user's verdict will do; nothing said.
    if (inUse.has(job.id)) return false;
    const who = deps.intents ? takeJob(deps.intents, job.id, notify) : null;
    if (who) {
      if (!who.said && !background) notify(`${who.by} is checking this change now`, 'info');
      return false;
    }
    use(job.id);
    return true;
  };
  /**
   * `take` once this process no longer uses the job (a check or a run of it ends first): what a user
   * in the foreground does. Checked again after each wait, with nothing awaited between the last
   * check and the take.
   */
  const takeWhenFree = async (job: BulkJob): Promise<boolean> => {
    for (let u = inUse.get(job.id); u; u = inUse.get(job.id)) await u.done;
    return take(job);
  };

  /**
   * A check of a job this process holds, from `logged`, the log's version read while holding it: the
   * log is the truth, never the caller's copy (another linedesk or an earlier check may have settled a
   * line since: a second verdict would be journaled; or another job closed this one's balance window).
   * A job ended since is given back as the log has it; one the log cannot be read for (its directory,
   * its file) or no longer has is not checked: said, with the path, released, and given back as given.
   */
  const checkHeld = async (given: BulkJob, logged: LoggedJob | undefined, hooks?: ChangeHooks) => {
    if (logged?.kind !== 'open') {
      letGo(given, 'release', logged?.kind === 'ended' || logged?.kind === 'gone');
      if (logged?.kind === 'ended') return logged.job;
      sayNotChecked([{ job: given, logged }], notify);
      return given;
    }
    const job = logged.job;
    const { onLine, finish } = wire(job, hooks);
    return finish(
      await checkJob(job, {
        client: deps.client,
        onLine,
        now,
        holdMs,
        ...othersAsked(job),
        interrupted: () => interrupted,
        ...(deps.sleep ? { sleep: deps.sleep } : {}),
      }),
    );
  };

  const resumedElsewhere =
    'Another linedesk resumed or settled this job meanwhile: nothing is sent from here (the journal has its outcome)';
  /**
   * A resume refused because the log has no open version of the job: one ended meanwhile is given back
   * as the log has it (its lines' outcomes, never the offer's "never sent"); a log that cannot be read
   * is said for what it is (its path), a job no longer in it (ended and dropped after an hour, or set
   * aside) as such: never "another linedesk". Nothing is sent.
   */
  const notResumed = (given: BulkJob, logged: LoggedJob | undefined): BulkJob => {
    if (logged?.kind === 'ended') {
      notify(
        'This job ended meanwhile (settled, or set aside): nothing is sent from here (the journal has its outcome)',
        'warning',
      );
      return logged.job;
    }
    // Open after all (written again between the two reads): another linedesk has been at it.
    if (logged?.kind === 'open') notify(resumedElsewhere, 'warning');
    else sayNotChecked([{ job: given, logged }], notify, 'resume');
    return given;
  };

  /**
   * A job let go from here: ended, or released (another linedesk may check it). A write the disk
   * refuses is said, with its file; never thrown at the key (or the run) that asked. Either way the
   * job's file stays: an end refused leaves it open, a release refused leaves it held by this process
   * (no other linedesk takes it until this one ends); the next start offers it.
   */
  const letGo = (job: { readonly id: string }, how: 'end' | 'release', closed = false) => {
    try {
      offerHolds.delete(job.id);
      if (how === 'release') deps.intents?.release(job.id);
      else if (endOnceJournaled(job.id) === 'waits') {
        const file = deps.intents?.where?.(job.id) ?? `the file of job ${job.id.slice(0, 8)}`;
        notify(
          `Job ${job.id.slice(0, 8)} is not ended yet: the journal has not written its entries, so ${file} stays open until it does (should this linedesk stop first, the next start journals them again)`,
          'warning',
        );
      }
    } catch (err) {
      deps.logError?.('intent log', err);
      sayNotLetGo(err, job.id, how, closed);
    }
  };
  /**
   * An end or a release of a job the disk refused, said with its file and what to do (`diskFix`): the
   * job's file stays (held by this process until it ends, when a release was refused), and the next
   * start offers it. `closed`: the log has ended the job, or no longer has it (settled or set aside
   * elsewhere): only its hold is left, and nothing of it is offered again.
   */
  const sayNotLetGo = (err: unknown, jobId: string, how: 'end' | 'release', closed = false) => {
    const fix = diskFix(err as NodeJS.ErrnoException | null, 'write');
    const then = closed
      ? ' (the log has closed it: nothing of it is offered again)'
      : `${how === 'release' ? ' stays held by this linedesk until it ends, and' : ''} is offered again at the next start`;
    notify(
      `The intent log cannot be written (${describeError(err)}): job ${jobId.slice(0, 8)}${closed ? "'s hold stays until this linedesk ends" : ''}${then}${fix ? `; ${fix} by then` : ''}`,
      'error',
    );
  };

  /**
   * How a job's lines are told as they change (`onLine`: written to the intent log first, then held,
   * journaled, shown) and how it ends (`finish`). `onDisk`: the job has its file in the log; a new job
   * refused before or at its begin has none (or one a failed begin left, which offers its lines at the
   * next start), so its lines are told all the same, journaled too, and nothing of it is written,
   * ended or released there.
   */
  const wire = (job: BulkJob, hooks: ChangeHooks | undefined, onDisk: () => boolean = () => true) => {
    if (hooks?.bulk) asBulk.add(job.id);
    const bulk =
      job.lines.length > 1 ||
      (job.op !== 'create' && job.op !== 'trial' && (hooks?.bulk ?? asBulk.has(job.id)));
    let current = job;
    /**
     * Lines whose last record the intent log refused: on disk they are still as before (pending, for
     * a line never sent). The engine ends one whose `sending` record is refused without writing again.
     */
    const unwritten = new Set<string>();
    /**
     * Lines whose file has them sent (`sending`, with its `sentAt`), from the last record the log took:
     * a line the client refused before its request left, whose "not sent" record was then refused, is
     * still `sending` there, so the next start checks it (never sends it).
     */
    const sentOnDisk = new Set(job.lines.filter((l) => l.sentAt !== undefined).map((l) => l.id));
    const onLine: EngineOptions['onLine'] = (l, server) => {
      // Written down first: if this throws on `sending`, the engine does not send.
      try {
        if (onDisk()) deps.intents?.line(job.id, forDisk(l));
        unwritten.delete(l.id);
        if (l.sentAt !== undefined) sentOnDisk.add(l.id);
        else sentOnDisk.delete(l.id);
      } catch (err) {
        deps.logError?.('intent log', err);
        unwritten.add(l.id);
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
    const finish = (ended: BulkJob) => {
      // Nothing of it is in flight from here now: ended, or free for another linedesk to check.
      offerHolds.delete(job.id);
      /** Why the job's file may stay (null: ended), offering what it has at the next start. */
      let stays: string | null = null;
      if (!onDisk()) {
        // No file of it to end or release (its lines say what happens to them).
      } else if (!needsAttention(ended)) {
        try {
          if (endOnceJournaled(job.id) === 'waits') stays = 'its end waits for the journal';
        } catch (err) {
          deps.logError?.('intent log', err);
          stays = `it could not be ended: ${describeError(err)}`;
        }
      } else {
        stays = 'other lines of the job are still open';
        // Free for another linedesk to check; a release the disk refuses is said, never thrown out of
        // the run (its outcomes stand as they are, the file offers the job at the next start).
        letGo(job, 'release');
      }
      const final = stays === null ? ended : notRetried(ended, stays);
      if (needsAttention(final)) latest.set(job.id, final);
      else latest.delete(job.id);
      // Shutting down: no checks, reads or timers after the user left (the next start checks).
      if (interrupted) return final;
      watch(final);
      emit({ type: 'finished', job: final });
      return final;
    };
    /**
     * The job's file stays for `why`: a line whose record of its end the log refused is pending
     * there, and the next start offers it for resuming. Retried from the results too, it would be in
     * two jobs (sent, and charged, twice): it ends not sent, never retryable, and is said with the file.
     * One that was sent (sending or unknown there: the next start checks it) keeps its outcome, never
     * retryable from here either (`keptOnDisk`).
     */
    const notRetried = (final: BulkJob, why: string): BulkJob => {
      // A sent line of any outcome (applied too: by the service's word, or settled by hand) is still
      // open in the file: held here as there, never taken for free.
      /** Sent as the file has it (checked at the next start), whatever this process knows of it. */
      const onFile = (l: BulkLine) => l.sentAt !== undefined || sentOnDisk.has(l.id);
      const at = final.lines.filter((l) => unwritten.has(l.id) && (retryable(l) || onFile(l)));
      if (!at.length) return final;
      const file = deps.intents?.where?.(job.id) ?? `the file of job ${job.id.slice(0, 8)}`;
      const stays = `${file} stays (${why})`;
      // What the next start does with each, as the file has it: a line never sent is pending there
      // (offered again); one sent is `sending` or `unknown` there (checked, never sent again), its
      // request gone, or refused here before it left (its "not sent" record refused: `sending` there).
      const unsent = at.filter((l) => !onFile(l)).map((l) => l.username);
      const sent = at.filter((l) => l.sentAt !== undefined).map((l) => l.username);
      const stopped = at.filter((l) => l.sentAt === undefined && onFile(l)).map((l) => l.username);
      const next = [
        ...(unsent.length ? [`offers ${linesNamed(unsent)} again (never sent)`] : []),
        ...(sent.length
          ? [
              `checks ${linesNamed(sent)} again with the server (${sent.length === 1 ? 'its request' : 'their requests'} left: never sent again)`,
            ]
          : []),
        ...(stopped.length
          ? [
              `checks ${linesNamed(stopped)} again with the server (not sent, but the file has ${stopped.length === 1 ? 'it' : 'them'} as sending: never sent again)`,
            ]
          : []),
      ];
      notify(
        `The intent log could not be written, and ${stays}: the next start ${next.join(' and ')}, so ${at.length === 1 ? 'it is' : 'they are'} not offered to retry now`,
        'error',
      );
      const ids = new Set(at.map((l) => l.id));
      return {
        ...final,
        lines: final.lines.map((l) => {
          if (!ids.has(l.id)) return l;
          // Sent: its outcome stays as told (never "not sent": its request left); the file has it open.
          // Refused before it left, with the file saying sending: "not sent" stays, checked all the same.
          if (onFile(l))
            return {
              ...l,
              keptOnDisk: true,
              detail: `${l.detail ?? l.state}; ${stays}: the next start checks this line again`,
            };
          const { provenNotApplied: _p, settledAfterUnknown: _s, ...rest } = l;
          return {
            ...rest,
            state: 'failed',
            detail: `${l.state === 'cancelled' ? 'not sent: cancelled' : l.detail}; ${stays}: the next start offers this line again`,
            notSent: true,
            refusedHere: true,
          };
        }),
      };
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
      id: newJobId(),
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

  /**
   * A run of a job this process uses now (`runChange` took it, or it is new): see `runChange`. A job
   * of an offer (a resume) is run from the log's version, read once taken.
   */
  const runHeld = async (
    given: BulkJob,
    hooks: ChangeHooks | undefined,
    how: { readonly resumed: boolean; readonly waited: boolean },
    stop: { readonly cancelled: boolean },
  ): Promise<BulkJob> => {
    let job = given;
    let read: OpenRead | undefined;
    // A job waited for goes by the log as a resume does, unless the log never had it (see below).
    let resumed = how.resumed || how.waited;
    if (resumed && deps.intents) {
      read = readOpen();
      const own = read.jobs.find((j) => j.id === given.id);
      const logged = own || read.untold ? undefined : versionsOf([given], (j) => j).get(given.id);
      if (!how.resumed && logged?.kind === 'gone') {
        // Waited for, never offered, with no window of its own, and not in the log: the run before it
        // was refused before writing anything (nothing was sent). It runs as the new job it is.
        resumed = false;
      } else if (!own || read.untold) {
        // Taken above: another linedesk may resume or check it.
        letGo(given, 'release', !read.untold && (logged?.kind === 'ended' || logged?.kind === 'gone'));
        return notResumed(given, read.untold ?? logged);
      } else job = own;
    }
    const singleChange = hooks?.bulk !== true && job.lines.length === 1;
    const reading = needsReading(job, { readAt: hooks?.linesReadAt, nowMs: now() });
    // The balance the job's window starts from, the judge of what checked lines cost. A resumed job
    // keeps the balance it started from: the replies it already had are counted in it. One none of
    // whose lines ever left (new, or stopped before sending, as during the read again) opens its
    // window from the balance read just before its first request (`openWindow`, after the read
    // again: a spend elsewhere during a long read is none of this job's); until then it is null.
    const fromNow =
      job.balanceBefore === undefined ||
      job.lines.every((l) => l.state === 'pending' || l.state === 'skipped' || l.state === 'cancelled');
    const balanceBefore: number | null = fromNow ? null : (job.balanceBefore ?? null);
    // Lines another job has an open change of are left to it: sent from here too, the line would be
    // changed twice, and the change seen would be either's. Another job still spending on this
    // account (another linedesk, or cron) moves the balance too: this job's window stays closed,
    // so none of its fall is counted as this job's (asked again as the window would open). A log
    // that cannot be read has no jobs here: the job is refused for it before anything is written.
    const first = read ?? readOpen(false);
    const { lines: others, spending: busy } = othersOfJob(job.id, first.jobs);
    // The lines left alone are written so only once the run goes ahead (`goAhead`), past every
    // refusal: until then the log keeps them as it had them, never sent, so a resume refused (or a
    // quit) leaves them counted in the next offer, not ended by a run that never went ahead. Pending
    // meanwhile, other linedesks read them as this live job's, to be sent: the cautious answer.
    const leftAlone = new Map<string, BulkLine>();
    let started: BulkJob = {
      ...job,
      balanceBefore: busy ? null : balanceBefore,
      lines: job.lines.map((l) => {
        if (l.state !== 'pending' || !others.has(l.id)) return l;
        leftAlone.set(l.id, l);
        return {
          ...l,
          state: 'skipped',
          detail: `left alone: ${others.get(l.id)} has an open change of this line`,
          heldBack: true,
        };
      }),
    };
    /** The job as the log has it: the lines left alone still as they were (see above). */
    const asLogged = (j: BulkJob): BulkJob =>
      leftAlone.size ? { ...j, lines: j.lines.map((l) => leftAlone.get(l.id) ?? l) } : j;
    /**
     * Stopped by a quit (or a resume refused before sending): every line never sent, the job left
     * on disk for the next start, as the log has it. A release the disk refuses is said with its
     * file (`letGo`), never thrown as the job's failure: the job stays as it is.
     */
    const leave = () => {
      letGo(started, 'release');
      return asLogged(started);
    };
    /**
     * Refused before anything was sent, for `why` (null: said already). One rule for every refusal
     * of a resume, whatever its cause (the lines' read again, the intent log): the job is left as
     * the log has it, released, its lines never sent, offered again (once its results close, and at
     * the next start), and said so. Its lines are not ended "not sent": the next start would no
     * longer offer them, and a retry of them as a new job would stand beside the offered one. A new
     * job ends as `asNew` says (its lines "not sent": its results offer them to retry).
     */
    const refuse = (why: string | null, asNew: () => BulkJob): BulkJob => {
      if (!resumed) return asNew();
      if (why !== null) notify(notResumedText(started, why, offered.has(started.id)), 'error');
      return leave();
    };
    /**
     * The job has its file in the intent log (its `begin` is on disk): until then its lines are told
     * (shown, journaled) but nothing of it is written there, nor ended or released (`wire`).
     */
    let begun = false;
    const wired = wire(started, hooks, () => begun);
    const { onLine } = wired;
    /**
     * The run goes ahead (it sends, or ends the job): the lines left alone are written so, once. A
     * write that fails is logged, not fatal: the line stays never sent on disk, and a later resume
     * reads the other jobs again before sending it. A job never begun has no file to write them to.
     */
    let aheadWritten = false;
    const goAhead = () => {
      if (aheadWritten || !begun) return;
      aheadWritten = true;
      for (const l of started.lines)
        if (leftAlone.has(l.id) && l.state === 'skipped')
          try {
            deps.intents?.line(job.id, forDisk(l));
          } catch (err) {
            deps.logError?.('intent log', err);
          }
    };
    const finish = (final: BulkJob) => {
      goAhead();
      return wired.finish(final);
    };
    /**
     * The never-sent lines ended with `patch`, then the job ends: the one way every path that ends
     * lines before sending ends them (a refusal of the intent log, before or at its begin, or after;
     * the read again; a cancel). Each is told like the engine's (`onLine`): shown, journaled "not
     * sent" (a journal that cannot take it is said: `journalRecorder`), and written to the job's file
     * once it has one.
     */
    const unsent = (patch: Partial<BulkLine>): BulkJob => {
      for (const l of started.lines) if (l.state === 'pending') onLine({ ...l, ...patch });
      return finish({
        ...started,
        lines: started.lines.map((l) => (l.state === 'pending' ? { ...l, ...patch } : l)),
      });
    };
    /** The intent log refused a record the job needs before sending: logged, then refused so. */
    const notWritten = (err: unknown): BulkJob => {
      deps.logError?.('intent log', err);
      return refuse(`the intent log cannot be written ${writeRefused(err)}`, () => unsent(notLogged(err)));
    };
    // A log that cannot be read cannot tell which lines another job is changing now: nothing is sent,
    // nothing written; said with the path (a resumed job was refused above, as it stands).
    if (first.untold) {
      sayNotChecked([{ job, logged: first.untold }], notify, resumed ? 'resume' : 'send');
      return refuse(null, () => unsent(notRead(first.untold!)));
    }
    // Written before the lines are read again: a job stopped during a long read (Ctrl-C, a dropped
    // session, a crash) is on disk with every line never sent, offered at the next start.
    try {
      deps.intents?.begin({ ...started, lines: asLogged(started).lines.map(forDisk) });
      begun = true;
    } catch (err) {
      deps.logError?.('intent log', err);
      // Written whole or not at all (`IntentLog.begin`): a resumed job's file is still the one offered,
      // and a new job's is gone, so its results may retry its lines. Unless the file could not be
      // taken back out (`BeginNotUndone`): the next start offers the job from it, so its lines end
      // not sent, never retried from here (they would be in two jobs).
      const left = err instanceof BeginNotUndone ? err : null;
      // A new job's begin undone: nothing of it is on disk, so another data directory would do too.
      const fresh = !left && !resumed;
      const why = `the intent log cannot be written ${writeRefused(left ? left.cause : err, fresh)}`;
      return refuse(why, () => {
        if (left)
          notify(
            `Nothing was sent: ${why}; its file ${left.path} stays (${left.left}): the next start offers these lines again, so they are not offered to retry now`,
            'error',
          );
        return unsent(left ? notUndone(left) : notLogged(err, true));
      });
    }

    // A resumed job's window open, as read once taken: `begin` wrote the file whole from that read, so
    // a close another linedesk appended in between (it began a job of this account, which spends from
    // then on) went with the old file. Read again, now the new file is there: another job spending
    // closes it again, as its close would have (a log that cannot be read is refused below).
    if (resumed && started.balanceBefore != null) {
      const after = readOpen();
      if (!after.untold && othersOfJob(started.id, after.jobs).spending) {
        try {
          deps.intents?.closeBalanceWindow(started.id);
        } catch (err) {
          return notWritten(err);
        }
        started = { ...started, balanceBefore: null };
      }
    }
    // A job's lines as the server has them now, before anything is spent (fresh-lines.ts): the
    // marks, or the line a screen showed, may be hours old, and a check that cannot judge by the
    // balance compares with them. Lines read within a minute (`linesReadAt`) are not read again.
    if (reading && started.lines.some((l) => l.state === 'pending')) {
      const servers = new Map<string, LineListItem>();
      let read: BulkJob | null;
      try {
        read = await readAgain(deps.client, started, {
          cancelled: () => stop.cancelled || interrupted,
          nowMs: now(),
          since: singleChange ? (hooks?.lineHad ?? 'shown') : 'marked',
          // A line not sent for what it is now: the caller gets the server's line (a screen shows it).
          seen: (l, server) => {
            if (l.state === 'skipped' && server) servers.set(l.id, server);
          },
          ...(hooks?.linesTotal !== undefined ? { total: hooks.linesTotal } : {}),
        });
      } catch (err) {
        // A quit closes the connection under the read: that is the quit, not a failed read.
        if (interrupted) return leave();
        deps.logError?.('lines read again before a job', err);
        // Cancelled while it read: the user's word ends the job, as when the read succeeds.
        if (stop.cancelled) return unsent(CANCELLED);
        const why = `the lines could not be read again before sending (${describeError(err)})`;
        return refuse(why, () => {
          notify(`Nothing was sent: ${why}; nothing was charged`, 'error');
          return unsent({
            state: 'failed',
            detail: `not sent: the line could not be read again before sending (${describeError(err)}); nothing charged`,
            provenNotApplied: true,
            notSent: true,
          });
        });
      }
      if (interrupted) return leave();
      if (!read || stop.cancelled) return unsent(CANCELLED);
      // Each line as read is written down before anything is sent: the check compares with it. A
      // write that fails is logged (onLine), not fatal: a line is sent only once its `sending`
      // record, which holds the line as read whole, is on disk (the engine's rule).
      read.lines.forEach((l, i) => {
        if (l !== started.lines[i]) onLine(l, servers.get(l.id));
      });
      const left = read.lines.filter(
        (l, i) => l.state === 'skipped' && started.lines[i]?.state === 'pending',
      );
      // A single change says it in its outcome (the dialog, the command's message), not twice.
      if (left.length && !singleChange) notify(leftText(left), 'warning');
      started = read;
      if (!started.lines.some((l) => l.state === 'pending')) return finish(started);
    }
    // The balance read now, after the read again and just before the first request: the job's
    // window starts here.
    // What the log said last, when nothing was awaited since: which windows to close asks it too.
    let last: OpenRead | undefined;
    if (fromNow && SPENDS.has(started.op)) {
      try {
        ({ job: started, read: last } = await openWindow(started));
      } catch (err) {
        // A quit or a cancel while the balance was read is that, as when the write succeeds.
        if (interrupted || stop.cancelled) {
          deps.logError?.('intent log', err);
          return interrupted ? leave() : unsent(CANCELLED);
        }
        return notWritten(err);
      }
      if (interrupted) return leave();
      if (stop.cancelled) return unsent(CANCELLED);
    }
    // This job spends from here: the balance no longer judges the other open jobs' charges. Not
    // before, nor when nothing is left to send: a job that sends nothing leaves their windows open.
    try {
      const untold =
        started.lines.some((l) => l.state === 'pending') &&
        closeBalanceWindows(started.id, last ?? readOpen());
      if (untold) {
        sayNotChecked([{ job: started, logged: untold }], notify, resumed ? 'resume' : 'send');
        return refuse(null, () => unsent(notRead(untold)));
      }
    } catch (err) {
      return notWritten(err);
    }
    goAhead();
    const sending = runJob(started, {
      client: deps.client,
      concurrency: deps.bulkConcurrency ?? 4,
      now,
      holdMs,
      ...othersAsked(started),
      cancelled: () => stop.cancelled,
      interrupted: () => interrupted,
      onLine,
      ...(deps.unreachableMs !== undefined ? { unreachableMs: deps.unreachableMs } : {}),
      ...(hooks?.onPause ? { onPause: hooks.onPause } : {}),
      ...(hooks?.onError ? { onError: hooks.onError } : {}),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.retry ? { retry: deps.retry } : {}),
    });
    running.add(sending);
    try {
      return finish(await sending);
    } finally {
      running.delete(sending);
    }
  };

  /** `runChange` from its cancel on: the job taken (or waited for, then taken), then run. */
  const runTaken = async (
    given: BulkJob,
    hooks: ChangeHooks | undefined,
    stop: { readonly cancelled: boolean },
  ): Promise<BulkJob> => {
    // A job of an offer (a resume): the log is the truth, not the copy read at start — another
    // linedesk may have taken it since, or sent and settled its lines. Sent only by whoever holds it,
    // and read once held: read before the take, a job another linedesk resumed and released in
    // between would be sent again from the copy. That read also tells what the other jobs hold.
    const resumed = given.balanceBefore !== undefined || offered.has(given.id);
    // In use from here (a check of it, in the background or asked for): that check ends first, and
    // the background checks of it stop (the run watches it again when it ends): a check that took it
    // meanwhile would release it, at its end, while this run still sends.
    // A job waited for is run from the log's version too: the run before it (the same job run twice)
    // began it and sent its lines; from the caller's copy they would go again.
    // (`waited`: one the log has is run from its version; one it never had, as the run before it
    // was refused before writing anything, runs as new: nothing of it ever left.)
    let waited = false;
    for (let u = inUse.get(given.id); u; u = inUse.get(given.id)) {
      waited = true;
      await u.done;
    }
    if (interrupted) return given;
    if (resumed || waited) {
      clearTimeout(watches.get(given.id));
      watches.delete(given.id);
      const who = deps.intents ? takeJob(deps.intents, given.id, notify) : null;
      if (who) {
        if (!who.said) notify(resumedElsewhere, 'warning');
        return given;
      }
      // The run's from here (it releases or ends it), no longer the offer's.
      offerHolds.delete(given.id);
    }
    // In use from here until the run ends (released or ended by it): a check or a settle of this
    // process leaves it to the run.
    use(given.id);
    try {
      return await runHeld(given, hooks, { resumed, waited }, stop);
    } finally {
      letBe(given.id);
    }
  };

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
        id: newJobId(),
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

    async runChange(given, hooks) {
      // After shutdown nothing new leaves: the job is left as it is, for the next start.
      if (interrupted) return given;
      // This run's cancel, from here (a cancel while it waits below reaches it too) to its end.
      const stop = { cancelled: false };
      const ofJob = cancels.get(given.id) ?? new Set();
      cancels.set(given.id, ofJob.add(stop));
      try {
        return await runTaken(given, hooks, stop);
      } finally {
        ofJob.delete(stop);
        if (!ofJob.size && cancels.get(given.id) === ofJob) cancels.delete(given.id);
      }
    },

    async checkChange(given, hooks) {
      // Another linedesk checking or making it now: its verdict will do; two at once would not help.
      // In use from here (a run, another check): a check in the background skips it, one asked for
      // waits for it to end. Taken first, then read: the version read is the one nothing else writes
      // meanwhile.
      if (!(hooks?.background ? take(given, true) : await takeWhenFree(given))) return given;
      try {
        return await checkHeld(given, versionsOf([given], (job) => job).get(given.id), hooks);
      } finally {
        letBe(given.id);
      }
    },

    cancel(jobId) {
      for (const run of cancels.get(jobId) ?? []) run.cancelled = true;
    },

    async recoverIntents(read) {
      const intents = deps.intents;
      await adoptForeign(deps, holdLines, notify);
      // One read of the log, once foreign jobs were moved in: the caller's, when given (it says a
      // read that failed, and goes on by what was read).
      const logged = intents ? (read?.() ?? readLog(intents)) : undefined;
      if (logged) holdDamagedIntents(logged, notify, hold, !read);
      const jobs = takeToOffer(logged?.jobs ?? []);
      return jobs.length ? checkOffered(jobs) : [];
    },

    recheckRecovered(given) {
      // The log is the truth: a job settled since (by hand, in the background, by another linedesk
      // that heard nothing of this offer) is taken as the log keeps it, never checked again from the
      // offer's copy (a second verdict journaled, records written to a file that is gone). A job the
      // log cannot be read for (its directory cannot be listed or is gone, its file does not read),
      // or no longer has, is not checked: said, with the path; the offer keeps it as it is, for a
      // check again once it reads. Read once here, before anything is taken (nothing is written for a
      // job it refuses), and once more for the jobs checked, once taken (`checkOffered`).
      const logged = versionsOf(
        given.map(({ job }) => job),
        (job) => latest.get(job.id) ?? job,
      );
      const refused: { job: BulkJob; logged: LoggedJob | undefined }[] = [];
      const now = given.map(({ job }) => {
        const l = logged.get(job.id);
        if (l?.kind === 'open' || l?.kind === 'ended') return l.job;
        refused.push({ job, logged: l });
        return job;
      });
      if (refused.length) sayNotChecked(refused, notify);
      return checkOffered(now, new Set(refused.map((r) => r.job.id)));
    },

    lookUpToMarkAgain: (ids, opts) =>
      lookUpToMarkAgain(deps.client, ids, {
        whole: opts.whole,
        cancelled: () => interrupted,
        logError: deps.logError,
      }),

    setAside(jobIds) {
      // Each job taken first, then read: set aside as the log has it now, never as an offer's copy
      // shows it (a check, here or by another linedesk, may have settled a line since), and never
      // under its holder: one another linedesk holds now (it resumed it, or checks it), or this
      // process uses (a check of it), is left to it, as it is. Only these jobs: one the log gained
      // since is not touched.
      for (const id of jobIds) {
        if (!take({ id }, true)) continue;
        try {
          const logged = versionsOf([{ id }], () => latest.get(id)).get(id);
          // Unsent lines of a job whose outcomes are all known are set aside; a job with unknown lines
          // stays in the log for next time, its unsent lines with it (the next start offers them
          // again). Ended or gone since: nothing to set aside. One the log cannot be read for is
          // released as it is, for the next start to offer.
          const job = logged?.kind === 'open' ? logged.job : null;
          letGo({ id }, job && !job.lines.some((l) => OPEN.has(l.state)) ? 'end' : 'release');
        } finally {
          letBe(id);
        }
      }
    },

    leaveForNextStart(jobs) {
      // A job this process uses now (a check of it) is released by that check when it ends.
      for (const { job } of jobs) if (!inUse.has(job.id)) letGo(job, 'release');
    },

    async offerAgain(waiting) {
      if (interrupted || !waiting.length) return [];
      // The log is the truth (a job may have been settled or ended since it was left waiting), read
      // as `recheckRecovered` reads it: a job the log cannot be read for (its directory, its file) or
      // no longer has is said, with the path, and nothing of it is written: it stays open in the log,
      // for the next start to offer. One ended since has its outcome in the journal.
      const logged = versionsOf(
        waiting.map(({ job }) => job),
        (job) => latest.get(job.id) ?? job,
      );
      const open: BulkJob[] = [];
      const refused: { job: BulkJob; logged: LoggedJob | undefined }[] = [];
      for (const { job } of waiting) {
        const l = logged.get(job.id);
        if (l?.kind === 'open') open.push(l.job);
        else if (l?.kind !== 'ended') refused.push({ job, logged: l });
        // Ended or gone (settled, or set aside, elsewhere): no open change of this job holds its lines
        // any more. One the log cannot be read for keeps them held.
        if (l?.kind === 'ended' || l?.kind === 'gone') letGoLinesOf(job.id);
      }
      if (refused.length) sayNotChecked(refused, notify, 'offer');
      const jobs = takeToOffer(open);
      return jobs.length ? checkOffered(jobs) : [];
    },

    settleByHand(jobId, lineId, verdict) {
      // Taken first, then read: the verdict is written over the log's version, which no other
      // linedesk writes while this process holds it. Nothing settled says why, as this read found it
      // (`Settled`): a log that cannot be read with its path, never as a line with nothing open. A
      // job this process runs or checks now is left to that: a settle here would write a verdict
      // under it, and release it (settling nothing) while it still sends.
      if (inUse.has(jobId)) return { ok: false, reason: 'in-use' };
      const intents = deps.intents;
      // Who holds it is asked first, as a take asks it (`takeJob`); a claim lost after that names no one.
      const by = intents?.heldElsewhere(jobId);
      if (by) return { ok: false, reason: 'held', by };
      if (intents && !intents.claim(jobId))
        return { ok: false, reason: 'held', by: intents.heldElsewhere(jobId) ?? 'another linedesk' };
      /**
       * Nothing settled: the job is free again (a release the disk refuses is logged, not thrown),
       * unless the offer holds it: its claim, not this settle's, stays.
       */
      const free = (why: NotSettled) => {
        if (!offerHolds.has(jobId))
          try {
            intents?.release(jobId);
          } catch (err) {
            deps.logError?.('intent log', err);
          }
        return why;
      };
      const logged = versionsOf([{ id: jobId }], () => latest.get(jobId)).get(jobId);
      if (logged?.kind === 'unreadable') {
        const { kind: _, ...unreadable } = logged;
        return free({ ok: false, reason: 'unreadable', ...unreadable });
      }
      if (logged?.kind === 'ended') return free({ ok: false, reason: 'settled', how: 'job ended' });
      const job = logged?.kind === 'open' ? logged.job : undefined;
      const line = job?.lines.find((l) => l.id === lineId || l.username === lineId);
      if (!job || !line) return free({ ok: false, reason: 'gone' });
      if (!OPEN.has(line.state)) return free({ ok: false, reason: 'settled', how: 'line settled' });
      const at = new Date(now()).toISOString();
      const settled: BulkLine =
        verdict === 'applied'
          ? {
              ...line,
              state: 'done',
              detail: `applied: settled by the user at ${at} (no proof from the service); charged, amount unknown`,
              settledAfterUnknown: 'by hand' as const,
              ...(SPENDS.has(job.op) ? { charge: 'unknown' as const } : {}),
            }
          : {
              ...line,
              state: 'failed',
              detail: `not applied: settled by the user at ${at} (no proof from the service)`,
              // The user's word, never the service's proof (`provenNotApplied`): `retryable` allows
              // its retry all the same.
              settledAfterUnknown: 'by hand' as const,
            };
      const { onLine, finish } = wire(job, undefined);
      onLine(settled);
      const final = { ...job, lines: job.lines.map((l) => (l === line ? settled : l)) };
      /** Given back as the disk has it: a verdict the log did not keep leaves the line open there. */
      const keptOpen = (ended: BulkJob): BulkJob => {
        const now = ended.lines.find((l) => l.id === line.id);
        if (now?.keptOnDisk) setUnsettled(line, jobId); // held here as on disk: the next start checks it
        return ended;
      };
      // `finish` never throws: a release the disk refuses is said (`letGo`), and a verdict whose record
      // it refused comes back `keptOnDisk` (`notRetried`).
      return { ok: true, job: keptOpen(finish(final)) };
    },

    async shutdown(graceMs) {
      for (const t of watches.values()) clearTimeout(t);
      watches.clear();
      // An interruption, not the user's cancel: the lines never sent stay `pending` in the intent log,
      // so the next start offers them for resuming (a cancel would record them `cancelled`, never
      // offered again).
      interrupted = true;
      if (running.size)
        await Promise.race([
          Promise.all([...running].map((job) => job.catch(() => null))),
          new Promise((r) => setTimeout(r, graceMs).unref?.()),
        ]);
      journal?.flush();
      journal?.stop();
    },
  };
  return service;
}

/**
 * A resume refused before anything was sent, for `why`: exact about what it covers. This attempt sent
 * and charged nothing; what earlier runs of the job sent keeps its outcomes and charges (never "nothing
 * was charged" of the whole job); and when the job is offered: again once its results close for a job
 * this process offered (the screens offer it again then), else at the next start only.
 */
function notResumedText(job: BulkJob, why: string, offeredHere: boolean): string {
  const sent = job.lines.filter(
    (l) => l.sentAt !== undefined || l.state === 'done' || OPEN.has(l.state),
  ).length;
  const earlier = sent
    ? `; the job's earlier charges are untouched (${counted(sent, 'line')} sent by its earlier runs keep${sent === 1 ? 's its outcome' : ' their outcomes'})`
    : '';
  const when = offeredHere ? 'again once these results close (and at the next start)' : 'at the next start';
  return `Not resumed: ${why}. This attempt sent nothing and charged nothing${earlier}; job ${job.id.slice(0, 8)} is offered ${when}`;
}

/**
 * The notice of a job's lines not sent because they changed since they were marked (they stay
 * marked: review and run again) or are no longer found (they leave the marks).
 */
function leftText(left: readonly BulkLine[]): string {
  const n = left.length;
  const gone = left.filter(notFoundAgain).length;
  const head = `${counted(n, 'line')} ${gone === 0 ? 'changed' : gone === n ? 'no longer found (deleted or moved)' : 'changed or no longer found'} since marked: not sent, nothing charged (${firstNames(left.map((l) => l.username))})`;
  if (gone === n) return `${head}; ${n === 1 ? 'it leaves' : 'they leave'} the marks`;
  const changed = n - gone;
  return `${head}; ${gone === 0 ? (n === 1 ? 'it stays' : 'they stay') : `the ${counted(changed, 'changed one')} ${changed === 1 ? 'stays' : 'stay'}`} marked: review and run again`;
}

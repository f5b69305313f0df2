/**
 * The screens' mirror of the change service (services/changes/service.ts): what they draw of open
 * changes (the unsettled and held lines, the journal's backlog, the recovery dialog's jobs), kept in
 * step through the service's events, and the effects a change has on other slices (the header's
 * balance, the row, the marks, a reload). The rules, the engine, the intent log, the journal, the
 * ownership of jobs and the background checks are the service's; these actions only call it.
 */
import type { BulkJob } from '../../domain/bulk';
import { notFoundAgain } from '../../services/changes/fresh-lines';
import { recoveredOf, toMarkAgain } from '../../services/changes/recovery';
import {
  type ChangeEvent,
  type ChangeHooks,
  type ChangeService,
  createChangeService,
  type Recovered,
} from '../../services/changes/service';
import { pageStaysAfter } from '../../services/lines-query';
import type { GetState, SetState, StoreDeps } from '../deps';

export type { Recovered };

/**
 * Where marking a line of an interrupted job again stands (one never sent, or one it left marked to
 * review): being looked up, marked again, not found (proven: the whole list was read), not looked up
 * (the lookup at start stopped at its page limit first), not readable (listed by the server in a form
 * that does not read), not identified (the whole list read, but it may be one of the lines listed so
 * whose id or username did not read either), or the lookup failed. The last four are looked up again
 * by a check again (resume.recheck).
 */
export type MarkAgain =
  | 'looking'
  | 'marked'
  | 'not found'
  | 'not looked up'
  | 'not readable'
  | 'not identified'
  | 'lookup failed';

/** Whether a line's lookup is to be tried again (not reached, not readable, not identified, or the
 *  lookup failed). */
export const lookUpAgain = (m: MarkAgain | undefined): boolean =>
  m === 'not looked up' || m === 'not readable' || m === 'not identified' || m === 'lookup failed';

export interface ChangesSlice {
  /** Journal entries not yet on disk (a write failed); retried, and shown until written. */
  readonly journalWaiting: number;
  /** Lines with a change whose outcome is still unknown: no new change is offered for them. */
  readonly unsettled: ReadonlyMap<string, string>;
  /** Of those, the lines held for someone else (another linedesk, another key), and who. */
  readonly held: ReadonlyMap<string, string>;
  /** Jobs the intent log held at start, checked with the server before anything else. */
  readonly recovery: { readonly checking: boolean; readonly jobs: readonly Recovered[] } | null;
  /** The offer's lines to be marked again (never sent, or left marked to review), by id: marked again
   *  or not, and why not (the offer says so, named). A line not listed is not looked up yet. */
  readonly markedAgain: ReadonlyMap<string, MarkAgain>;
  /** Runs a job through the change service: intent first, then requests, outcomes, journal. */
  runChange: (job: BulkJob, hooks?: ChangeHooks) => Promise<BulkJob>;
  /** Checks a job's unknown lines with the server again (never re-sends). */
  checkChange: (job: BulkJob, hooks?: ChangeHooks) => Promise<BulkJob>;
  /** Stops scheduling the requests of job `jobId` (only that job's); those in flight finish. */
  cancelChange: (jobId: string) => void;
  /**
   * At start: open intents of this service are checked before anything else (the resume dialog).
   * Resolved once the check is done and its lines are marked again; given `marksAfter` (the start:
   * the first page), the lookup of the lines to mark again waits for it, and this resolves once the
   * check is done (the offer says they are being looked up meanwhile).
   */
  recoverIntents: (opts?: { readonly marksAfter?: Promise<unknown> }) => Promise<void>;
  /** The offer's check again (resume.recheck): its unknown lines checked with the server, its lines
   *  not looked up looked up again; resolved once that marking is done. */
  recheckRecovery: () => Promise<void>;
  /** The recovery dialog's "set aside" (Esc): a job whose outcomes are all known is closed (its
   *  journal entries stay); one with unknown lines is kept, its unsent lines offered at the next start. */
  dismissRecovery: () => void;
  /** The recovery dialog's "resume" (Enter): this job takes its unsent lines over; the dialog goes, and
   *  the offer's other jobs are released as they are, offered again once it has ended and its results
   *  are closed (`offerWaiting`), or by the next start if linedesk stops first. */
  recoveryResumed: (jobId: string) => void;
  /** The resumed job has ended and its results are closed: the offer's jobs left waiting by Enter are
   *  offered again in this session (checked, and counted as the intent log has them now); resolved
   *  once that offer's marking is done. Nothing when none waits or an offer is shown. */
  offerWaiting: () => Promise<void>;
  /** The resumed job's resume was refused before its lines were sent (its intent file could not be
   *  read, say): it waits with the others, offered again with them as the log has it then. */
  offerLater: (job: Recovered) => void;
  /** The process is going away: the service stops scheduling (not a cancel). */
  shutdown: (graceMs: number) => Promise<void>;
  /** The user settles an open line by hand (see the service): the job settled, or why nothing was. */
  settleByHand: ChangeService['settleByHand'];
}

/** The store's deps with the change service made from them (unless given: a command shares its own). */
export function withChangeService(deps: StoreDeps): StoreDeps & { readonly changes: ChangeService } {
  if (deps.changes) return deps as StoreDeps & { readonly changes: ChangeService };
  return {
    ...deps,
    changes: createChangeService({
      client: deps.client,
      target: deps.target,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.journal ? { journal: deps.journal } : {}),
      ...(deps.intents ? { intents: deps.intents } : {}),
      ...(deps.foreignIntents ? { foreignIntents: deps.foreignIntents } : {}),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.retry ? { retry: deps.retry } : {}),
      ...(deps.holdMs !== undefined ? { holdMs: deps.holdMs } : {}),
      ...(deps.watch !== undefined ? { watch: deps.watch } : {}),
      ...(deps.watchFirstMs !== undefined ? { watchFirstMs: deps.watchFirstMs } : {}),
      ...(deps.unreachableMs !== undefined ? { unreachableMs: deps.unreachableMs } : {}),
      ...(deps.bulkConcurrency !== undefined ? { bulkConcurrency: deps.bulkConcurrency } : {}),
      ...(deps.logError ? { logError: deps.logError } : {}),
    }),
  };
}

export function createChangesSlice(set: SetState, get: GetState, deps: StoreDeps): ChangesSlice {
  const changes = deps.changes!;
  /** Jobs with a line whose row on screen may not be the server's (a done line the server gave no
   *  row for; a line not sent because it changed or went since marked, failed, or unknown): the page
   *  is read again at their end. */
  const rowUnknown = new Set<string>();
  /**
   * Marks are not saved: after a restart an interrupted job's lines never sent and those it left
   * marked to review (changed since marked) are marked again here, looked up by the service (one
   * lookup: `lookUpToMarkAgain`) so a mark holds the line as the server has it now. One not found, not
   * looked up, or whose lookup failed is not marked: the offer says so (markedAgain).
   * Once per offer: a check again (resume.recheck) looks up only what was not marked yet and not
   * proven gone, so a line the user unmarked since stays unmarked; the first lookup of an offer reads
   * at most the service's page limit, a check again the whole list (the user asked for it).
   * `marked` holds the ids marked again this offer; `lookedUp` whether the offer's first lookup ran.
   * `offer` counts the offers left for good (resumed, or replaced by a new one): a lookup that
   * answers after that marks nothing and writes nothing. Its lines are a running job's (a resume
   * sends them, and the bulk results show them) or a gone offer's (the new one looks up its own).
   * After Esc it marks them still: the offer said they stay marked.
   */
  let remarking: Promise<void> = Promise.resolve();
  let marked = new Set<string>();
  let lookedUp = false;
  let offer = 0;
  /** The jobs of an offer Enter did not resume (it resumes one): offered again once it has ended. */
  let waiting: readonly Recovered[] = [];
  /** What the lookups wait for (the start's first page): the check comes first, the lookup need not. */
  let lookUpsAfter: Promise<unknown> = Promise.resolve();
  const markJobLinesAgain = async (jobs: readonly Recovered[]) => {
    const mine = offer;
    const ids = toMarkAgain(jobs).filter((id) => {
      const m = get().markedAgain.get(id);
      return !marked.has(id) && m !== 'not found' && m !== 'looking';
    });
    if (!ids.length) return;
    const settle = (what: (id: string) => MarkAgain) => {
      const next = new Map(get().markedAgain);
      for (const id of ids) next.set(id, what(id));
      set({ markedAgain: next });
    };
    settle(() => 'looking');
    const whole = lookedUp;
    lookedUp = true;
    await lookUpsAfter;
    if (mine !== offer) return;
    const r = await changes.lookUpToMarkAgain(ids, { whole });
    if (mine !== offer) return;
    const fresh = r.found.filter((l) => !marked.has(l.id));
    for (const l of fresh) marked.add(l.id);
    if (fresh.length) get().markLines(fresh);
    const why = new Map<string, MarkAgain>([
      ...r.notFound.map((id) => [id, 'not found'] as const),
      ...r.notLookedUp.map((id) => [id, 'not looked up'] as const),
      ...r.notReadable.map((id) => [id, 'not readable'] as const),
      ...r.notIdentified.map((id) => [id, 'not identified'] as const),
      ...r.failed.map((id) => [id, 'lookup failed'] as const),
    ]);
    settle((id) => (marked.has(id) ? 'marked' : (why.get(id) ?? 'not looked up')));
  };
  /**
   * The offer shows where its jobs stand now: a job of it checked or settled outside it (a background
   * check, a line settled by hand, the bulk results' check) is replaced by what it is now, so its
   * counts, its rows and the keys it offers (a check again only while one has something to do) follow.
   * Not while the offer's own check runs: its end says.
   */
  const offerFollows = (job: BulkJob) => {
    const r = get().recovery;
    if (!r || r.checking || !r.jobs.some((x) => x.job.id === job.id)) return;
    set({ recovery: { ...r, jobs: r.jobs.map((x) => (x.job.id === job.id ? recoveredOf(job) : x)) } });
  };
  const follow = (e: ChangeEvent) => {
    switch (e.type) {
      case 'notice':
        return get().notify(e.text, e.tone);
      case 'open':
        return set({ unsettled: e.open.unsettled, held: e.open.held });
      case 'journalWaiting':
        return set({ journalWaiting: e.waiting });
      case 'account':
        return get().accountRead(e.account);
      case 'line': {
        const { job, line: l, server } = e;
        // No reply wrote its row: a line skipped when read again before sending (changed or gone since
        // marked; a single change's dialog shows it itself), one failed (not found, say), or unknown.
        if (l.state === 'skipped' || l.state === 'failed' || l.state === 'unknown') rowUnknown.add(job.id);
        // Not sent for what the line is now (read again just before sending): its row is the server's,
        // and read now, whether any line of the job is done or not (a row left as marked, read under a
        // minute ago, would let a change be sent on it without the read again that skipped this one).
        // A line read older than shown is not given (held back): its row stays, read again next time.
        if (l.state === 'skipped' && server && !l.heldBack && job.op !== 'create' && job.op !== 'trial')
          get().replaceLine(server);
        if (l.state !== 'done') return;
        // The header follows the money as it is spent: each reply says the balance after its charge.
        if (l.newBalance !== undefined) get().balanceSeen(l.newBalance);
        // What a settled line changes on screen: the row, the marks (done lines are unmarked).
        if (job.op === 'delete') get().removeLine(l.id);
        else if (server && job.op !== 'create' && job.op !== 'trial') get().replaceLine(server);
        else if (server) get().rememberLineExtras(server);
        if (!server && job.op !== 'delete') rowUnknown.add(job.id);
        if (get().marked.has(l.id)) get().unmark(l.id);
        // The header's runway follows the server's row (a walk at the job's end only if it cannot).
        get().runwayLineDone(job, l, server);
        return;
      }
      case 'finished': {
        offerFollows(e.job);
        // The balance exactly (replies of a job may arrive out of order: only falls were taken), the
        // line count (create, delete), and the drift judgement of the balance after the job.
        void get().loadAccount();
        // The page as the server orders and filters it, unless the rows replaced in place are that
        // page already (an extend on the list by id, of one line or many: issue 27, no page read).
        // A page read answered during the job keeps the rows its replies wrote since it was sent, and
        // one sent before a reply is neither joined nor cached (store/page-cache.ts's generation).
        // A page read asked before now may hold rows from before the job: none is shown again (the
        // dialog's reload after a create shares the one read here).
        // A line the read before sending did not find (deleted or moved elsewhere) leaves the marks
        // and the page, as a done delete does: kept marked, it was listed as the line it had been.
        const gone = e.job.lines.filter(notFoundAgain);
        for (const l of gone) if (get().marked.has(l.id)) get().unmark(l.id);
        if (gone.length || e.job.lines.some((l) => l.state === 'done' || l.state === 'unknown'))
          get().linesChanged();
        const stale = rowUnknown.delete(e.job.id);
        if (
          (gone.length && e.job.lines.length > 1) ||
          (e.job.lines.some((l) => l.state === 'done') && (stale || !pageStaysAfter(e.job.op, get().query)))
        )
          void get().refreshLines({ afterChange: true });
        get().runwayJobFinished(e.job);
        return;
      }
      case 'checked':
        offerFollows(e.job);
        return get().changeChecked(e.job);
      case 'recovery':
        // The resume dialog opens as the check starts: never sent is known from the log already. A new
        // offer (none shown) marks again afresh; a check again within it does not (markJobLinesAgain).
        if (e.checking && !get().recovery) {
          offer++;
          marked = new Set();
          lookedUp = false;
          set({ markedAgain: new Map() });
        }
        set({ recovery: e });
        if (e.checking) get().pushView({ id: 'resume' });
        // Joined to a marking still running (a check again during the first lookup): recoverIntents and
        // recheckRecovery resolve once every marking is done, not only the last, which skips the lines
        // being looked up.
        else remarking = Promise.all([remarking, markJobLinesAgain(e.jobs)]).then(() => {});
        return;
    }
  };
  changes.subscribe(follow);

  return {
    journalWaiting: 0,
    unsettled: new Map(),
    held: new Map(),
    recovery: null,
    markedAgain: new Map(),
    runChange: (job, hooks) => changes.runChange(job, hooks),
    checkChange: (job, hooks) => changes.checkChange(job, hooks),
    cancelChange: (jobId) => changes.cancel(jobId),
    async recoverIntents(opts) {
      lookUpsAfter = opts?.marksAfter ?? Promise.resolve();
      await changes.recoverIntents();
      if (!opts?.marksAfter) await remarking;
    },
    async recheckRecovery() {
      const shown = get().recovery;
      if (!shown || shown.checking) return;
      // A job of the offer settled since is given back as it is: its lines not looked up are looked
      // up after the check like the rest (the recovery event that ends it; the whole list this time).
      await changes.recheckRecovered(shown.jobs);
      await remarking;
    },
    dismissRecovery() {
      const r = get().recovery;
      if (r?.checking) return;
      // Only the jobs shown when Esc came (one the log gained since is not touched); the service takes
      // each and sets it aside as the intent log has it now (a check may have settled a line since the
      // offer was drawn), leaving one another linedesk holds to it.
      changes.setAside((r?.jobs ?? []).map((x) => x.job.id));
      set({ recovery: null });
      get().closeView('resume');
    },
    recoveryResumed(jobId) {
      // The job runs from here: a lookup of the offer still running marks none of its lines. The
      // offer's other jobs are released as they are (another linedesk, or the next start, may take them).
      const others = get().recovery?.jobs.filter((r) => r.job.id !== jobId) ?? [];
      changes.leaveForNextStart(others);
      // Offered again in this session once this job has ended (offerWaiting), else at the next start.
      waiting = others;
      offer++;
      set({ recovery: null, markedAgain: new Map() });
    },
    offerLater(job) {
      if (!waiting.some((r) => r.job.id === job.job.id)) waiting = [...waiting, job];
    },
    async offerWaiting() {
      if (!waiting.length || get().recovery) return;
      const left = waiting;
      waiting = [];
      await changes.offerAgain(left);
      await remarking;
    },
    settleByHand: (jobId, lineId, verdict) => changes.settleByHand(jobId, lineId, verdict),
    shutdown: (graceMs) => changes.shutdown(graceMs),
  };
}

/**
 * `linedesk pending`: the changes this account has left open — outcomes still unknown (no change seen
 * yet, or no proof either way), lines held for another linedesk or a damaged intent file, lines never
 * sent by an interrupted job — checked with the service again first. `--wait` keeps checking until
 * every hold window has passed; `--settle` records what the user knows (typed confirmation), as
 * settled by the user; `--set-aside` moves a damaged intent file out of the way.
 */
import { type BulkJob, OPEN } from '../../domain/bulk';
import { linesNamed } from '../../domain/format';
import { heldUntil } from '../../domain/proof';
import type { Column } from '../../present/lines-columns';
import {
  logReadFailed,
  sayNotChecked,
  unreadableAdvice,
  unreadableLog,
} from '../../services/changes/intent-damage';
import { type LogRead, loggedJobs, readLog } from '../../services/changes/intent-log';
import type { ChangeService, NotSettled, Recovered } from '../../services/changes/service';
import { describeError } from '../../services/describe-error';
import { ambiguityText, resolveItem } from '../../services/paste-lookup';
import { EXIT, usageFailure } from '../failure';
import { tableText } from '../format';
import type { Failure } from '../output';
import { type Ctx, type Services, withServices } from '../session';
import { changeServiceOf } from './change-session';

interface OpenRow {
  readonly [key: string]: string | null;
  readonly job: string;
  readonly op: string;
  readonly id: string | null;
  readonly username: string;
  readonly state: 'unknown' | 'held' | 'never sent';
  readonly since: string;
  readonly detail: string;
}

const COLUMNS: readonly Column<OpenRow>[] = [
  { id: 'username', header: 'USERNAME', width: { min: 16, flex: 2, max: 32 }, cell: (r) => r.username },
  { id: 'op', header: 'OP', width: 9, cell: (r) => r.op },
  { id: 'state', header: 'STATE', width: 10, cell: (r) => r.state },
  { id: 'since', header: 'SENT', width: 16, cell: (r) => r.since },
  { id: 'detail', header: 'DETAIL', width: { min: 10, flex: 4 }, cell: (r) => r.detail },
];

export function pendingCommand(ctx: Ctx): Promise<number> {
  const v = ctx.run.values;
  if (v.settle !== undefined && (v.as === undefined || v.confirm === undefined)) {
    const f = usageFailure('--settle needs --as applied|not-applied and --confirm with the username', [
      v.as === undefined ? 'as' : 'confirm',
    ]);
    ctx.out.fail(f);
    return Promise.resolve(f.exit);
  }
  return withServices(ctx, async (sv) => {
    if (v['set-aside'] !== undefined) return setAside(ctx, sv, String(v['set-aside']));
    const changes = changeServiceOf(ctx, sv);
    // The log read once a run: by the recovery (once foreign jobs were moved in), then gone on by.
    let read: LogRead | undefined;
    const readOnce = () => {
      read ??= sv.intents ? readLog(sv.intents) : { jobs: [], damage: [] };
      return read;
    };
    // The open jobs the read still had are checked by the recovery though a part of the log did not
    // read (`readLog`): that is said once, by this command (`report`, or a settle that finds nothing).
    const recovered = await changes.recoverIntents(readOnce);
    const seen = seenOf(readOnce(), recovered, sv.target.id);
    if (v.settle !== undefined)
      return settle(ctx, changes, sv, seen, {
        wanted: String(v.settle),
        as: String(v.as),
        confirm: String(v.confirm),
      });
    if (v.wait) await waitOut(ctx, changes, sv, seen);
    return report(ctx, changes, seen);
  });
}

/**
 * This account's jobs as the run knows them, from its one read of the log: each as read, or as this
 * run left it (`known`: the recovery checked or offered it, or `--wait` checked it since). A job read
 * but not known since is one the recovery let be: held by another linedesk (its lines held), or
 * ended or gone meanwhile (nothing of it open).
 */
interface Seen {
  readonly read: LogRead;
  readonly jobs: Map<string, BulkJob>;
  readonly known: Set<string>;
}

function seenOf(read: LogRead, recovered: readonly Recovered[], target: string): Seen {
  const jobs = new Map(read.jobs.filter((j) => j.target === target).map((j) => [j.id, j]));
  const known = new Set<string>();
  for (const { job } of recovered)
    if (jobs.has(job.id)) {
      jobs.set(job.id, job);
      known.add(job.id);
    }
  return { read, jobs, known };
}

/** The open lines of this account's jobs, as the run knows them (`Seen`). */
function openRows(changes: ChangeService, seen: Seen): OpenRow[] {
  const { held: heldLines } = changes.open();
  const rows: OpenRow[] = [];
  for (const job of seen.jobs.values()) {
    for (const l of job.lines) {
      const held = heldLines.get(l.id);
      if (!OPEN.has(l.state) && l.state !== 'pending') continue;
      if (!held && !seen.known.has(job.id)) continue;
      rows.push({
        job: job.id,
        op: job.op,
        id: l.id.startsWith('new:') ? null : l.id,
        username: l.username,
        state: held ? 'held' : l.state === 'pending' ? 'never sent' : 'unknown',
        since: l.sentAt ? new Date(l.sentAt).toISOString().slice(0, 16).replace('T', ' ') : '',
        detail: held
          ? `held for ${held}`
          : l.state === 'pending'
            ? 'never sent: open linedesk to resume it or set it aside'
            : (l.detail ?? 'sent; no answer yet'),
      });
    }
  }
  return rows;
}

async function report(ctx: Ctx, changes: ChangeService, seen: Seen): Promise<number> {
  const rows = openRows(changes, seen);
  // The log's damaged files, from the run's one read. Reading is defensive: a read that threw is a
  // bug of ours, said here once (the recovery was told to leave it to this), never "Nothing is
  // pending", never exit 0: what is open cannot be told.
  const { damage, error } = seen.read;
  if (error !== undefined) {
    const { text, advice } = logReadFailed(error);
    ctx.out.message(`What is pending cannot all be told: ${text}; ${advice}`, 'red');
  }
  if (ctx.run.format === 'json') {
    // What could not be read, for a script too (`unreadable`: its path, the problem, whether the
    // open changes were read all the same).
    const unreadable = error === undefined ? {} : { unreadable: error };
    await ctx.out.data(`${JSON.stringify({ open: rows, damaged: damage, ...unreadable }, null, 2)}\n`);
  } else {
    if (rows.length) await ctx.out.data(tableText(ctx.out, COLUMNS, rows, ctx.now()));
    // Each damaged file (or the directory) was said by the recovery this command began with, with
    // what to do (intent-damage.ts `holdDamagedIntents`): not said again here, in other words.
    if (!rows.length && !damage.length && error === undefined)
      ctx.out.message('Nothing is pending: every change has a known outcome.');
    else if (rows.some((r) => r.state === 'unknown'))
      ctx.out.message(
        'Unknown outcomes are never re-sent. They are checked again at every start (linedesk pending --wait keeps checking until their hold window ends); if you know better, settle one with --settle.',
      );
  }
  // An ended job's damaged file leaves nothing open: said, but not "something pending" to a script.
  // Damage that cannot be read at all may hide open changes: exit 3, as an unknown outcome does.
  return rows.length || error !== undefined || damage.some((d) => !d.ended) ? EXIT.unknown : EXIT.done;
}

/**
 * Checks again, backing off, until no open line is inside its hold window (or nothing is open). Goes
 * by each check's answer (the job as the log has it once checked), never `readLog` again; each round
 * first reads the versions of the jobs it waits on (`loggedJobs`, as every check does), so a job ended
 * or set aside elsewhere meanwhile is said and dropped, not checked again.
 */
async function waitOut(ctx: Ctx, changes: ChangeService, sv: Services, seen: Seen): Promise<void> {
  const { holdMs } = sv;
  /** Jobs (and paths) said not to read: said once, not each round (`sayNotChecked`'s words). */
  const unreadSaid = new Set<string>();
  for (let attempt = 0; ; attempt++) {
    const jobs = [...seen.jobs.values()].filter((j) => j.lines.some((l) => OPEN.has(l.state)));
    const now = ctx.now();
    const until = Math.max(
      0,
      ...jobs.flatMap((j) => j.lines.map((l) => heldUntil(j, l, { now, holdMs }) ?? 0)),
    );
    if (!jobs.length || (until === 0 && attempt > 0)) return;
    const pause = Math.min(60_000, 5_000 * 2 ** attempt, Math.max(1_000, until - now));
    ctx.out.progress(
      `checking again in ${Math.round(pause / 1000)} s (hold windows end ${new Date(until).toTimeString().slice(0, 5)})…`,
    );
    await new Promise((r) => setTimeout(r, ctx.io.tune?.sleep ? 1 : pause));
    // Another linedesk may have ended a job meanwhile (settled it, or set it aside): the log, read
    // once a round, tells; such a job is said once and no longer checked (its outcome is that
    // linedesk's: the journal has it), never waited on until its hold window ends.
    const logged = sv.intents
      ? loggedJobs(
          sv.intents,
          jobs.map((j) => j.id),
        )
      : undefined;
    for (const job of jobs) {
      const inLog = logged?.get(job.id);
      if (inLog?.kind === 'ended' || inLog?.kind === 'gone') {
        seen.jobs.delete(job.id);
        seen.known.delete(job.id);
        ctx.out.message(endedElsewhere(job, inLog.kind));
        continue;
      }
      // Its file (or the log's directory) does not read now: a check would be refused, and say so
      // each round. Said once, with the path and what to do; checked again once it reads.
      if (inLog?.kind === 'unreadable') {
        const key = `${job.id}\n${inLog.path}`;
        if (!unreadSaid.has(key))
          sayNotChecked([{ job, logged: inLog }], (text) => ctx.out.message(text, 'yellow'));
        unreadSaid.add(key);
        continue;
      }
      const checked = await changes.checkChange(job);
      seen.jobs.set(job.id, checked);
      seen.known.add(job.id);
    }
  }
}

/** A job `--wait` no longer checks: ended elsewhere (settled or set aside), or no longer in the log. */
const endedElsewhere = (job: BulkJob, how: 'ended' | 'gone') =>
  `The ${job.op} of ${linesNamed(job.lines.map((l) => l.username))} ${
    how === 'ended'
      ? 'was ended meanwhile by another linedesk (settled, or set aside): no longer checked from here (the journal has its outcome)'
      : 'is no longer in the intent log (ended elsewhere and dropped, or set aside meanwhile): no longer checked from here (the journal has the outcome of an ended job; look up the lines of one set aside on the panel)'
  }`;

async function settle(
  ctx: Ctx,
  changes: ChangeService,
  sv: Services,
  seen: Seen,
  asked: { readonly wanted: string; readonly as: string; readonly confirm: string },
): Promise<number> {
  const { wanted, as, confirm } = asked;
  const unread = seen.read.error;
  // Every job the run read, as the recovery left it: one it let be (held by another linedesk, ended
  // or set aside meanwhile) too, so the settle says why it settles nothing (`notSettled`: held, exit
  // 3), never "No open outcome" for a line `linedesk pending` lists.
  const jobs = [...seen.jobs.values()];
  const w = wanted.trim();
  // The one lookup (services/paste-lookup.ts) over the open lines: a username in another case names its
  // line, usernames that differ only by case are listed, never guessed.
  const open = jobs.flatMap((job) => job.lines.filter((l) => OPEN.has(l.state)).map((l) => ({ job, l })));
  const r = resolveItem(
    open.map((o) => o.l),
    w,
  );
  if (r.kind === 'ambiguous') {
    const f = {
      code: 'line_ambiguous',
      message: ambiguityText(w, r.lines),
      path: ['settle'],
      exit: EXIT.failed,
    };
    ctx.out.fail(f);
    return f.exit;
  }
  const found = r.kind === 'found' ? open.filter((o) => o.l.id === r.line.id) : [];
  // A line not among the jobs read, when a part of the log did not read: it may be open there, so
  // never "No open outcome" (a line found is settled from its job's own file, read again by the settle).
  if (!found.length && unread !== undefined) {
    const { text, advice } = logReadFailed(unread);
    ctx.out.fail(couldNot(`${text}; nothing was settled: ${advice}`));
    return EXIT.failed;
  }
  if (!found.length) {
    const f = {
      code: 'line_not_found',
      message: `No open outcome for "${w}" (see: linedesk pending)`,
      path: ['settle'],
      exit: EXIT.failed,
    };
    ctx.out.fail(f);
    return f.exit;
  }
  const { job, l } = found[0]!;
  if (confirm !== l.username) {
    const f = usageFailure(
      `--confirm must be the line's username, typed again (${l.username}); nothing was settled`,
      ['confirm'],
    );
    ctx.out.fail(f);
    return f.exit;
  }
  const verdict = as === 'applied' ? 'applied' : 'not applied';
  let settled: ReturnType<ChangeService['settleByHand']>;
  try {
    settled = changes.settleByHand(job.id, l.id, verdict);
  } catch (err) {
    // The disk refused the take (the owner file's path named).
    ctx.out.fail(couldNot(describeError(err)));
    return EXIT.failed;
  }
  if (!settled.ok) {
    const f = notSettled(settled, job.id, l, sv.intents !== undefined);
    ctx.out.fail(f);
    return f.exit;
  }
  // The disk refused the verdict's record (and the job's end, or its release): the job's file still
  // has the change open, so the line stays held and the next start checks it again (said just above,
  // with the file and why). Never "free" then: what is true, and what to do.
  if (settled.job.lines.find((x) => x.id === l.id)?.keptOnDisk) {
    const file = sv.intents?.where?.(job.id) ?? `the file of job ${job.id.slice(0, 8)}`;
    ctx.out.fail(
      couldNot(
        `${job.op} ${l.username}: your verdict (${verdict}) is not kept in the intent log: ${file} still has the change open (the journal may list it as settled by you), so the line is not free for a new change: it stays held, and the next start checks it again. Fix the disk (its space, its permissions), then settle it again: linedesk pending --settle ${l.username} --as ${as} --confirm ${l.username}`,
      ),
    );
    return EXIT.failed;
  }
  ctx.out.message(
    `${job.op} ${l.username}: settled by you as ${verdict} (recorded in the journal as settled by the user).${verdict === 'not applied' ? ' The line is free for a new change: if the service did apply it, a new change is charged again.' : ''}`,
  );
  return EXIT.done;
}

const couldNot = (why: string): Failure => ({
  code: 'failed',
  message: `Could not settle it: ${why}`,
  path: null,
  exit: EXIT.failed,
});

/**
 * Why a settle by hand settled nothing, as the settle itself found it (`Settled`): never read again
 * here (the log may have changed since: another reason, another exit code). Only a holder is said as
 * one (exit 3: the outcome may still be told once it ends).
 */
function notSettled(
  why: NotSettled,
  jobId: string,
  line: { readonly id: string; readonly username: string },
  logged: boolean,
): Failure {
  const failed = (code: string, text: string, exit: number = EXIT.failed): Failure => ({
    code,
    message: `${line.username}'s change ${text}`,
    path: null,
    exit,
  });
  const settled = 'nothing was settled from here (the journal has its outcome)';
  switch (why.reason) {
    case 'held':
      return failed('held', `is held by ${why.by} now; try again when it ends`, EXIT.unknown);
    case 'in-use':
      return couldNot(
        `this linedesk is sending or checking job ${jobId.slice(0, 8)} now; nothing was settled: try again once that ends`,
      );
    case 'unreadable':
      return couldNot(
        `${unreadableLog(why.path, why.problem, why.cause)}; nothing was settled: ${unreadableAdvice(why.path, why.cause, 'try again once it reads')}`,
      );
    case 'settled':
      return failed(
        'line_not_found',
        `is already settled: ${why.how === 'job ended' ? 'its job ended' : 'its line was settled'} meanwhile; ${settled}`,
      );
    case 'gone':
      return logged
        ? failed(
            'line_not_found',
            'is no longer in the intent log (its job ended and was dropped, or was set aside); nothing was settled',
          )
        : failed('line_not_found', 'is no longer open; nothing was settled');
  }
}

async function setAside(ctx: Ctx, help: Services, path: string): Promise<number> {
  if (ctx.run.values.yes !== true) {
    const f = usageFailure(
      `--set-aside moves ${path} out of the intent log: its lines are no longer checked or held. Look them up first; then add --yes`,
      ['yes'],
    );
    ctx.out.fail(f);
    return EXIT.notConfirmed;
  }
  if (!help.intents?.setAside) {
    ctx.out.fail({
      code: 'failed',
      message: 'This intent log cannot set files aside',
      path: null,
      exit: EXIT.failed,
    });
    return EXIT.failed;
  }
  try {
    const to = help.intents.setAside(path);
    ctx.out.message(`Set aside: ${path} is now ${to} (kept, no longer read).`);
    return EXIT.done;
  } catch (err) {
    ctx.out.fail({ code: 'failed', message: describeError(err), path: ['set-aside'], exit: EXIT.failed });
    return EXIT.failed;
  }
}

/**
 * `linedesk pending --settle USERNAME --as applied|not-applied --confirm USERNAME`: records what the
 * user knows of one open line, as settled by the user, and says what is true of its record.
 */
import { join } from 'node:path';
import { OPEN } from '../../domain/bulk';
import { logReadFailed, unreadableAdvice, unreadableLog } from '../../services/changes/intent-damage';
import type { ChangeService, NotSettled } from '../../services/changes/service';
import { describeError } from '../../services/describe-error';
import { ambiguityText, resolveItem } from '../../services/paste-lookup';
import { EXIT, usageFailure } from '../failure';
import type { Failure } from '../output';
import type { Ctx, Services } from '../session';
import type { Seen } from './pending-seen';
import type { SettleRecord } from './pending-settle-record';

/**
 * Settles the one open line `wanted` names (its username typed again as `confirm`) as `as`, through
 * the change service (`settleByHand`); what settles nothing says why, with its exit code.
 */
export async function settle(
  ctx: Ctx,
  changes: ChangeService,
  sv: Services,
  seen: Seen,
  asked: { readonly wanted: string; readonly as: string; readonly confirm: string },
  record: SettleRecord,
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
  const found = r.kind === 'found' ? open.filter((o) => o.l.id === r.line.id) : [];
  // A part of the log that did not read is named, with what to do, whatever the settle then does
  // (a settle that finds nothing says it in its own words, below): a file that cannot be read is
  // never passed over because the line asked for was read elsewhere. What is open cannot all be
  // told then: a settle that settles exits 3, as `linedesk pending` does (what it settled stands).
  if (unread !== undefined && (found.length || r.kind === 'ambiguous')) {
    const { text, advice } = logReadFailed(unread);
    ctx.out.message(`What is pending cannot all be told: ${text}; ${advice}`, 'red');
  }
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
  const from = record.journaled.length;
  try {
    settled = changes.settleByHand(job.id, l.id, verdict);
  } catch (err) {
    // The disk refused the take (the owner file's path named).
    ctx.out.fail(couldNot(describeError(err)));
    return EXIT.failed;
  }
  if (!settled.ok) {
    const f = notSettled(settled, job.id, l, sv.intents !== null);
    ctx.out.fail(f);
    return f.exit;
  }
  // A journal entry refused once is tried again when the service shuts down (its last try, which
  // also ends the job once the entry is on disk): made now, before anything is said, and the last
  // (`close`: the command's own shutdown tries no more), so what the settle says is what is on disk
  // once the command ends, never a first try a later one undid.
  if (record.journal !== null) {
    await changes.shutdown(SHUTDOWN_GRACE_MS);
    record.close();
  }
  // What of its record is on disk now, as written (null: no such file is kept): the verdict in the
  // intent log (or the job ended there), its entry in the journal.
  const inLog = record.intents === null ? null : record.kept.has(l.id) || record.ended.has(job.id);
  const journaled =
    record.journal === null
      ? null
      : record.journaled.slice(from).some((e) => e.operation === job.op && e.username === l.username);
  // The disk refused the verdict's record (and the job's end, or its release): the job's file still
  // has the change open, so the line stays held and the next start checks it again. Never "free"
  // then: what is true, and what to do. The service marks such a line `keptOnDisk` only when it would
  // offer it to retry (a verdict of "not applied"): one of "applied" is told by what was written.
  const keptOnDisk = settled.job.lines.find((x) => x.id === l.id)?.keptOnDisk === true;
  if (keptOnDisk || inLog === false) {
    const file = sv.intents?.where?.(job.id) ?? `the file of job ${job.id.slice(0, 8)}`;
    // Why, when the service said nothing of it (it says a line it marks `keptOnDisk`, with its file).
    const error = keptOnDisk ? undefined : record.refused.get(l.id);
    const why = error === undefined ? '' : ` (${describeError(error)})`;
    ctx.out.fail(
      couldNot(
        `${job.op} ${l.username}: your verdict (${verdict}) is not kept in the intent log${why}: ${file} still has the change open${journaled === null ? '' : journaled ? ' (the journal lists it as settled by you)' : ' (nor is it in the journal)'}, so the line is not free for a new change: it stays held, and the next start checks it again. Fix the disk (its space, its permissions), then settle it again: linedesk pending --settle ${l.username} --as ${as} --confirm ${l.username}`,
      ),
    );
    return EXIT.failed;
  }
  const free =
    verdict === 'not applied'
      ? ' The line is free for a new change: if the service did apply it, a new change is charged again.'
      : '';
  // The intent log kept the verdict, the journal refused its entry (said just above, with why): the
  // job's file stays for it, and a later run writes it from there (its recovery journals a settled
  // line the journal lacks, then ends the job). Never "recorded in the journal"; exit 1, as a record
  // not kept is.
  if (journaled === false) {
    const f: Failure = {
      code: 'journal_unwritten',
      message: `${job.op} ${l.username}: settled by you as ${verdict}, kept in the intent log but not recorded in the journal: ${join(ctx.dirs.data, 'journal.jsonl')} could not be written.${free} The intent log keeps the job for its journal entry: fix the disk first (its space, its permissions), then run linedesk pending (or start linedesk): it writes the entry there from the intent log. There is nothing to settle again.`,
      path: null,
      exit: EXIT.failed,
    };
    ctx.out.fail(f);
    return f.exit;
  }
  ctx.out.message(
    `${job.op} ${l.username}: settled by you as ${verdict}${journaled ? ' (recorded in the journal as settled by the user)' : ''}.${free}`,
  );
  return unread === undefined ? EXIT.done : EXIT.unknown;
}

/** How long a check still running may take to end at that shutdown (as the command's own gives it). */
const SHUTDOWN_GRACE_MS = 5_000;

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

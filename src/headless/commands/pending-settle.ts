/**
 * `linedesk pending --settle USERNAME --as applied|not-applied --confirm USERNAME`: records what the
 * user knows of one open line, as settled by the user, and says what is true of its record.
 */
import { OPEN } from '../../domain/bulk';
import { logReadFailed, unreadableAdvice, unreadableLog } from '../../services/changes/intent-damage';
import type { ChangeService, NotSettled } from '../../services/changes/service';
import { describeError } from '../../services/describe-error';
import { ambiguityText, resolveItem } from '../../services/paste-lookup';
import { EXIT, usageFailure } from '../failure';
import type { Failure } from '../output';
import type { Ctx, Services } from '../session';
import type { Seen } from './pending-seen';

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

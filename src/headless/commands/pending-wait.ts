/**
 * `linedesk pending --wait`: checks the open outcomes again, backing off, until every hold window has
 * passed (or nothing is open); the report follows (pending.ts).
 */
import { type BulkJob, OPEN } from '../../domain/bulk';
import { linesNamed } from '../../domain/format';
import { heldUntil } from '../../domain/proof';
import { sayNotChecked } from '../../services/changes/intent-damage';
import { loggedJobs } from '../../services/changes/intent-log';
import type { ChangeService } from '../../services/changes/service';
import type { Ctx, Services } from '../session';
import type { Seen } from './pending-seen';

/**
 * Checks again, backing off, until no open line is inside its hold window (or nothing is open). Goes
 * by each check's answer (the job as the log has it once checked), never `readLog` again; each round
 * first reads the versions of the jobs it waits on (`loggedJobs`, as every check does), so a job ended
 * or set aside elsewhere meanwhile is said and dropped, not checked again.
 */
export async function waitOut(ctx: Ctx, changes: ChangeService, sv: Services, seen: Seen): Promise<void> {
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

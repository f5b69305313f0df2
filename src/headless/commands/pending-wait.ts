/**
 * `linedesk pending --wait`: checks the open outcomes again, backing off, until every hold window has
 * passed (or nothing is open); the report follows (pending.ts).
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type BulkJob, type BulkLine, OPEN } from '../../domain/bulk';
import { linesNamed } from '../../domain/format';
import { heldUntil } from '../../domain/proof';
import { sayNotChecked } from '../../services/changes/intent-damage';
import { loggedJobs } from '../../services/changes/intent-log';
import type { JournalEntry } from '../../services/changes/journal';
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
        // Gone from the log: ended elsewhere and dropped (the journal has each outcome), or set aside
        // (or its file removed) with an outcome still unknown, which stays so: said as such, and
        // reported as open (exit 3), never "every change has a known outcome".
        const unknown = inLog.kind === 'gone' ? notJournaled(sv, job) : [];
        if (!unknown.length) {
          ctx.out.message(endedElsewhere(job, inLog.kind));
          continue;
        }
        const where = sv.intents?.where?.(job.id) ?? null;
        const file = where === null ? null : movedTo(where);
        seen.left.set(job.id, { job: { ...job, lines: unknown }, file });
        ctx.out.message(leftUnknown(job, unknown, where, file), 'yellow');
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

/**
 * A job `--wait` no longer checks, its outcome known elsewhere: ended by another linedesk (its file
 * kept as ended), or no longer in the log with every open line's outcome in the journal (ended and
 * dropped).
 */
const endedElsewhere = (job: BulkJob, how: 'ended' | 'gone') =>
  `The ${job.op} of ${linesNamed(job.lines.map((l) => l.username))} ${
    how === 'ended'
      ? 'was ended meanwhile by another linedesk (settled, or set aside): no longer checked from here (the journal has its outcome)'
      : 'is no longer in the intent log (ended elsewhere and dropped): no longer checked from here (the journal has its outcome)'
  }`;

/**
 * A job that left the log with lines whose outcome the journal does not have: set aside (or its file
 * removed or moved away) meanwhile. Its outcome stays unknown: nothing checks it again, here or at
 * the next start; the user looks its lines up.
 */
function leftUnknown(
  job: BulkJob,
  lines: readonly BulkLine[],
  where: string | null,
  file: string | null,
): string {
  const how =
    file !== null
      ? `set aside meanwhile (its file is now ${file})`
      : where !== null
        ? `its file ${where} was removed or moved away meanwhile`
        : 'set aside or removed meanwhile';
  return `The ${job.op} of ${linesNamed(lines.map((l) => l.username))} is no longer in the intent log: ${how}, its outcome still unknown (setting a file aside proves nothing of what the service did). It is no longer checked, from here or at the next start: look ${lines.length === 1 ? 'its line' : 'its lines'} up on the panel to learn whether the change was applied`;
}

/**
 * The job's open lines (as last checked) whose outcome the journal does not have (its last entry of
 * the change is missing or unknown): all of them when the journal cannot be read.
 */
function notJournaled(sv: Services, job: BulkJob): BulkLine[] {
  const open = job.lines.filter((l) => OPEN.has(l.state));
  let entries: readonly JournalEntry[];
  try {
    entries = sv.journal?.read() ?? [];
  } catch {
    return open;
  }
  const last = new Map<string, JournalEntry['outcome']>();
  for (const e of entries) if (e.opId !== undefined) last.set(e.opId, e.outcome);
  return open.filter((l) => {
    const outcome = last.get(`${job.id}:${l.username}`);
    return outcome === undefined || outcome === 'unknown';
  });
}

/**
 * Where a job file no longer in the log is now, when beside it (`--set-aside` renames it to
 * `<name>.damaged-<time>`; a hand's `<name>.damaged`, say): the newest such name, else null. The
 * log's own companions (its owner file, a write's temporary, an ended job's file) are not it.
 */
function movedTo(where: string): string | null {
  const dir = dirname(where);
  const name = basename(where);
  try {
    const moved = readdirSync(dir)
      .filter((f) => f.startsWith(`${name}.`) && f !== `${name}.settled` && !/\.(owner|tmp|stale)$/.test(f))
      .sort();
    return moved.length ? join(dir, moved.at(-1)!) : null;
  } catch {
    return null;
  }
}

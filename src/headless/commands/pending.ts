/**
 * `linedesk pending`: the changes this account has left open — outcomes still unknown (no change seen
 * yet, or no proof either way), lines held for another linedesk or a damaged intent file, lines never
 * sent by an interrupted job — checked with the service again first. `--wait` keeps checking until
 * every hold window has passed; `--settle` records what the user knows (typed confirmation), as
 * settled by the user; `--set-aside` moves a damaged intent file out of the way.
 */
import { OPEN } from '../../domain/bulk';
import type { Column } from '../../present/lines-columns';
import { logReadFailed } from '../../services/changes/intent-damage';
import { type LogRead, readLog } from '../../services/changes/intent-log';
import type { ChangeService } from '../../services/changes/service';
import { describeError } from '../../services/describe-error';
import { EXIT, usageFailure } from '../failure';
import { tableText } from '../format';
import { type Ctx, type Services, withServices } from '../session';
import { changeServiceOf } from './change-session';
import { type Seen, seenOf } from './pending-seen';
import { settle } from './pending-settle';
import { settleRecord } from './pending-settle-record';
import { waitOut } from './pending-wait';

interface OpenRow {
  readonly [key: string]: string | null;
  readonly job: string;
  readonly op: string;
  readonly id: string | null;
  readonly username: string;
  readonly state: 'unknown' | 'held' | 'never sent' | 'set aside';
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
    // A settle's files noted: it says its verdict is kept, or journaled, only when it was written.
    const record = v.settle !== undefined ? settleRecord(sv) : null;
    const changes = changeServiceOf(
      ctx,
      record ? { ...sv, intents: record.intents, journal: record.journal } : sv,
    );
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
    if (record)
      return settle(
        ctx,
        changes,
        sv,
        seen,
        {
          wanted: String(v.settle),
          as: String(v.as),
          confirm: String(v.confirm),
        },
        record,
      );
    if (v.wait) await waitOut(ctx, changes, sv, seen);
    return report(ctx, changes, seen);
  });
}

/** When a line's request left, to the minute (UTC), or '' when it never did. */
const sentAt = (l: { readonly sentAt?: number | undefined }) =>
  l.sentAt ? new Date(l.sentAt).toISOString().slice(0, 16).replace('T', ' ') : '';

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
        since: sentAt(l),
        detail: held
          ? `held for ${held}`
          : l.state === 'pending'
            ? 'never sent: open linedesk to resume it or set it aside'
            : (l.detail ?? 'sent; no answer yet'),
      });
    }
  }
  // Set aside during `--wait` with the outcome still unknown: open for this run's report (exit 3),
  // though nothing checks them again.
  for (const { job, file } of seen.left.values())
    for (const l of job.lines)
      rows.push({
        job: job.id,
        op: job.op,
        id: l.id.startsWith('new:') ? null : l.id,
        username: l.username,
        state: 'set aside',
        since: sentAt(l),
        detail: `outcome unknown, no longer checked (${file === null ? 'its intent file is gone' : `now ${file}`}): look it up on the panel`,
      });
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

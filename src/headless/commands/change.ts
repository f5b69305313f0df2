/**
 * create, trial, extend, upgrade, unsuspend, delete: through the change service, as the screens'
 * dialogs go, so a script gets the app's rules, quote, change engine, intent log and journal — but no
 * dialog: --yes is the confirmation. A single line runs as a job of one line; `--stdin` as a bulk job.
 */
import type { LineListItem, Package } from '../../api/contract';
import {
  affordability,
  type BulkJob,
  type ChangeOp,
  deletedPaidTimeText,
  planLine,
  progressOf,
  toBulkLine,
} from '../../domain/bulk';
import type { Refusal } from '../../domain/change-rules';
import { buildBody, fieldsFor, formErrors } from '../../domain/line-form';
import { parsePasteList } from '../../domain/paste-list';
import { stepConnections } from '../../domain/steps';
import { skippedText } from '../../services/account';
import { openRefusal } from '../../services/changes/open-lines';
import type { ChangeService, Recovered } from '../../services/changes/service';
import type { Change } from '../../services/changes/validate';
import { describeError } from '../../services/describe-error';
import { ambiguityText, unsettledText, unsettledWhy } from '../../services/paste-lookup';
import { EXIT } from '../failure';
import type { Failure } from '../output';
import { type Ctx, type Services, withServices } from '../session';
import { type ChangeParams, changeParams, FLAG_OF, invalid, pathOf } from './change-params';
import { changeText, exitOf, printQuote, printResults, type Quote, summaryText } from './change-report';
import { changeServiceOf } from './change-session';

/** What a change command runs on: the services, the change service, the account's balance, the packages. */
interface Run {
  readonly sv: Services;
  readonly changes: ChangeService;
  readonly balance: number;
  /** The account's line count (read with the balance): what a walk over the list costs. */
  readonly linesCount: number;
  readonly packages: readonly Package[];
  /** What the recovery at start found open (and checked). */
  readonly recovered: readonly Recovered[];
}

export function changeCommand(ctx: Ctx): Promise<number> {
  const op = ctx.run.command as ChangeOp;
  const params = changeParams(op, ctx.run.values);
  if ('exit' in params) return failed(ctx, params);
  return withServices(ctx, async (sv) => {
    const changes = changeServiceOf(ctx, sv);
    const recovered = await recover(ctx, changes);
    const [account, packages] = await Promise.allSettled([sv.client.me(), sv.client.packages()]);
    // A change is judged against the balance (a bulk job's total, a single change's cost): without
    // it nothing goes further, and the message says that is why.
    if (account.status === 'rejected')
      return failed(
        ctx,
        sv.failure(`The balance could not be read, so nothing was sent: ${describeError(account.reason)}`),
      );
    if (packages.status === 'fulfilled' && packages.value.skipped.length)
      ctx.out.message(skippedText('package', packages.value.skipped), 'yellow');
    if (packages.status === 'rejected' && (op === 'extend' || op === 'create' || op === 'trial'))
      return failed(ctx, sv.failure(describeError(packages.reason)));
    const r: Run = {
      sv,
      changes,
      balance: account.value.credits,
      linesCount: account.value.lines_count,
      packages: packages.status === 'fulfilled' ? packages.value.packages : [],
      recovered,
    };
    if (op === 'create' || op === 'trial') return createOne(ctx, r, params);
    if (ctx.run.values.stdin) return changeMany(ctx, r, params);
    return changeOne(ctx, r, params, ctx.run.args[0]!);
  });
}

function failed(ctx: Ctx, f: Failure): Promise<number> {
  ctx.out.fail(f);
  return Promise.resolve(f.exit);
}

/** Changes an earlier run left open are checked with the server before anything is sent. */
async function recover(ctx: Ctx, changes: ChangeService): Promise<readonly Recovered[]> {
  const jobs = await changes.recoverIntents();
  for (const { job, unsent } of jobs) {
    const unknown = job.lines.filter((l) => l.state === 'unknown' || l.state === 'sending');
    const applied = job.lines.filter((l) => l.state === 'done').length;
    const when = job.createdAt.slice(0, 16).replace('T', ' ');
    ctx.out.message(
      `An earlier ${job.op} (${when} UTC) was left open and checked with the server: ${applied} applied` +
        `${unknown.length ? `, still unknown: ${unknown.map((l) => l.username).join(', ')} (nothing is re-sent)` : ''}` +
        `${unsent ? `; ${unsent} never sent: open linedesk to resume them or set them aside` : ''}.`,
      unknown.length ? 'yellow' : undefined,
    );
  }
  return jobs;
}

async function createOne(ctx: Ctx, r: Run, p: ChangeParams): Promise<number> {
  const trial = p.op === 'trial';
  const kinds = r.packages.filter((k) => k.is_trial === trial);
  const length = trial ? p.hours : p.months;
  const pkg = kinds.find((k) => k.duration === length);
  if (!pkg)
    return failed(
      ctx,
      invalid(
        trial ? 'hours' : 'months',
        `${trial ? '--hours' : '--months'}: the service has no ${trial ? 'trial' : 'regular'} package of ${length} ${
          trial ? 'hours' : 'months'
        } (it has: ${kinds.map((k) => k.duration).join(', ') || 'none'})`,
      ),
    );
  const values = { ...p.form, packageId: pkg.id };
  const errors = formErrors(trial, values, kinds);
  const first = fieldsFor(trial).find((f) => errors[f.id]);
  if (first)
    return failed(
      ctx,
      invalid(pathOf(first.id, trial), `${FLAG_OF[first.id] ?? first.id}: ${errors[first.id]}`),
    );
  // The job records what the dialog would: a new line's months and connections are its body's.
  const change: Change = {
    op: p.op,
    line: null,
    body: buildBody(trial, values, pkg),
    months: 1,
    connections: stepConnections(1, 1),
  };
  return quoteAndSend(ctx, r, change, pkg);
}

async function changeOne(ctx: Ctx, r: Run, p: ChangeParams, wanted: string) {
  // Read now, seconds before it sends: the change service does not read the line again.
  const readAt = ctx.now();
  const got = await r.sv.lookupOne(wanted);
  if ('failure' in got) return failed(ctx, got.failure);
  const { line } = got;
  const open = r.changes.open();
  const refusal = openRefusal(open, line.id);
  if (refusal)
    return failed(ctx, {
      code: 'unknown_outcome',
      // The key's disabled reason, word for word, then what a script can do about it.
      message: open.held.has(line.id)
        ? `${line.username}: ${refusal.message}`
        : `${line.username}: ${refusal.message} (checked again just now${openDetail(r.recovered, line.id)}); nothing new is sent for it until the server shows what happened (see: linedesk pending)`,
      path: null,
      exit: EXIT.unknown,
    });
  const change: Change = { op: p.op, line, body: null, months: p.months, connections: p.connections };
  return quoteAndSend(ctx, r, change, null, readAt);
}

/** A refusal by a rule: its message, alone, its field as the path; nothing quoted, nothing sent. */
const refused = (ctx: Ctx, rule: Refusal, exit: number = EXIT.failed, message = rule.message) =>
  failed(ctx, {
    code: 'refused',
    message: `${message}: nothing was sent`,
    path: rule.field ? [rule.field] : null,
    exit,
  });

/**
 * The single change: the rules first (a refusal is printed alone, before any quote), then its quote
 * and the rules a cost decides; with --yes, one request through the engine, and its outcome.
 */
async function quoteAndSend(
  ctx: Ctx,
  r: Run,
  change: Change,
  pkg: Package | null,
  /** When the line was looked up (a single change of an existing line). */
  linesReadAt?: number,
): Promise<number> {
  const { out, run } = ctx;
  const json = run.format === 'json';
  const { changes, balance } = r;
  // A rule that needs no cost refuses without asking for one (the server's quote of a trial line's
  // upgrade is its own refusal, in other words than the rule's).
  const rule = changes.validate(change);
  if (rule) return refused(ctx, rule);
  const quoted = await changes.quote(change, r.packages);
  if ('failure' in quoted) {
    const f = r.sv.failure(`No quote: ${quoted.failure}`);
    // A taken username is the server's answer about the username field.
    return failed(ctx, change.body && f.code === 'conflict' ? { ...f, path: ['username'] } : f);
  }
  const { cost, estimate } = quoted.quote;
  const blocked = changes.validate(change, { balance, cost, pkg: quoted.quote.pkg ?? pkg });
  if (blocked) return refused(ctx, blocked);
  const body = change.body as { username?: string } | null;
  const line = change.line as LineListItem | null;
  const quote: Quote = {
    op: change.op,
    target: { kind: r.sv.target.kind, label: r.sv.target.label },
    estimate,
    total: cost,
    balance,
    rows: [
      {
        id: line?.id ?? null,
        username: line?.username ?? body?.username ?? '',
        change: line ? changeText(change.op, change, toBulkLine(line)) : changeText(change.op, change),
        cost,
        note:
          change.op === 'delete'
            ? ['deleted for good', line ? planDelete(line, ctx.now()).detail : undefined]
                .filter(Boolean)
                .join('; ')
            : '',
        skipped: false,
      },
    ],
    lost:
      change.op === 'delete' && line ? deletedPaidTimeText([planDelete(line, ctx.now())], ctx.now()) : null,
  };
  const yes = run.values.yes === true;
  await printQuote(out, quote, !yes, json);
  if (!yes) {
    out.message('Not sent: run it again with --yes to send it.');
    return EXIT.notConfirmed;
  }
  // This command showed nothing: it looked the line up, and a line changed since says so.
  const sent = await changes.send(change, cost, {
    lineHad: 'looked up',
    ...(linesReadAt !== undefined ? { linesReadAt } : {}),
  });
  await printResults(out, sent.job, {
    json,
    created: sent.outcome === 'applied' && change.body ? sent.server : undefined,
    notFound: [],
    now: ctx.now(),
    target: quote.target,
  });
  if (sent.message) out.message(sent.message, sent.outcome === 'applied' ? undefined : 'yellow');
  else out.message(summaryText(sent.job));
  // Not sent because the line changed (or went) since it was looked up: a failure, nothing charged.
  if (sent.outcome === 'skipped' && !sent.line.heldBack) return EXIT.failed;
  return exitOf(sent.job, 0);
}

/** Ids or usernames from stdin, with the line of stdin each came from. */
async function readItems(ctx: Ctx): Promise<{ item: string; at: number }[]> {
  let text = '';
  for await (const chunk of ctx.io.stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  const out: { item: string; at: number }[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((row, i) => {
    for (const item of parsePasteList(row).items) {
      if (seen.has(item)) continue;
      seen.add(item);
      out.push({ item, at: i + 1 });
    }
  });
  return out;
}

/** The bulk job: lines looked up (one not found is named and the rest go on), planned, quoted, run. */
async function changeMany(ctx: Ctx, r: Run, p: ChangeParams): Promise<number> {
  const { out, run } = ctx;
  const { changes, balance } = r;
  const json = run.format === 'json';
  const items = await readItems(ctx);
  if (!items.length)
    return failed(ctx, {
      code: 'usage',
      message: 'Nothing on stdin: give ids or usernames, one per line',
      path: ['stdin'],
      exit: EXIT.usage,
    });
  // Read now, seconds before the job sends: the change service does not read them again.
  const readAt = ctx.now();
  const looked = await r.sv.lookup(
    items.map((i) => i.item),
    { total: r.linesCount },
  );
  const { found, ambiguous } = looked;
  const notFound: string[] = [];
  // Left out without proof of absence (not reached, or listed in a form that does not read): the
  // JSON names them apart (`notProvenAbsent`), so a script never takes them for deleted.
  const notProvenAbsent: string[] = [];
  const lines = new Map<string, LineListItem>();
  for (const { item, at } of items) {
    const l = found.get(item);
    const several = ambiguous.get(item);
    const why = unsettledWhy(looked, item);
    if (!l) {
      notFound.push(item);
      if (why && !several) notProvenAbsent.push(item);
      out.message(
        `stdin line ${at}: ${several ? ambiguityText(item, several) : why ? `"${item}" was ${unsettledText(why, undefined, looked.nameless)}` : `no line answers to "${item}"`}; left out, the others go on`,
        'yellow',
      );
    } else lines.set(l.id, l);
  }
  // "Not found" only when every line left out is proven absent (or ambiguous, said above).
  if (!lines.size)
    return failed(
      ctx,
      notProvenAbsent.length
        ? {
            code: 'line_unsettled',
            message: `No line given could be taken; ${notProvenAbsent.length === items.length ? (notProvenAbsent.length === 1 ? 'it is' : 'they are') : `${notProvenAbsent.length} of them are`} not proven absent (above, why)`,
            path: null,
            exit: EXIT.failed,
          }
        : {
            code: 'line_not_found',
            message: 'None of the lines given was found',
            path: null,
            exit: EXIT.failed,
          },
    );
  if (p.op === 'create' || p.op === 'trial') return EXIT.usage;
  const planned = await changes.quoteJob(
    changes.plan(p.op, [...lines.values()].map(toBulkLine), p, r.packages),
  );
  // The rules first: a refusal is printed alone, before any quote. (--yes is the typed count the
  // app asks for before a bulk delete.)
  const blocked = changes.validateJob(planned, { balance });
  if (blocked) return refusedJob(ctx, planned, blocked);
  const quote: Quote = {
    op: planned.op,
    target: { kind: r.sv.target.kind, label: r.sv.target.label },
    estimate: planned.op === 'extend',
    total: affordability(planned.lines, balance).total,
    balance,
    rows: planned.lines.map((l) => ({
      id: l.id,
      username: l.username,
      change: changeText(planned.op, planned, l),
      cost: l.cost,
      note: l.detail ?? '',
      skipped: l.state === 'skipped',
    })),
    lost: planned.op === 'delete' ? deletedPaidTimeText(planned.lines, Date.parse(planned.createdAt)) : null,
  };
  const yes = run.values.yes === true;
  await printQuote(out, quote, !yes, json);
  if (!yes) {
    out.message('Not sent: run it again with --yes to send it.');
    return EXIT.notConfirmed;
  }
  let final: BulkJob = planned;
  try {
    final = await changes.runChange(planned, {
      bulk: true,
      linesReadAt: readAt,
      onProgress: (j) => {
        const pr = progressOf(j, 0);
        out.progress(
          `${j.op}: ${pr.done} done, ${pr.failed} failed, ${pr.unknown} unknown, ${pr.remaining} to go`,
        );
      },
    });
  } catch (err) {
    r.sv.logError('bulk', err);
    out.message(`The bulk job stopped: ${describeError(err)}`, 'yellow');
  } finally {
    out.clearProgress();
  }
  await printResults(out, final, { json, notFound, notProvenAbsent, now: ctx.now(), target: quote.target });
  out.message(summaryText(final), final.lines.some((l) => l.state === 'unknown') ? 'yellow' : undefined);
  if (final.lines.some((l) => l.state === 'unknown'))
    out.message(
      'Unknown outcomes are kept in the intent log and checked again by the next change command or the app; nothing is re-sent.',
    );
  const code = exitOf(final, notFound.length);
  if (code === EXIT.partial)
    out.message(
      'Partly done (exit 6): the applied lines are charged; re-run only the lines not applied (listed above), never the whole input.',
      'yellow',
    );
  return code;
}

/**
 * A bulk job the rules refuse. "Nothing to do" says why line by line (the plan's notes); when lines
 * are left out because an earlier change to them is open, it is that change's code (exit 3).
 */
function refusedJob(ctx: Ctx, job: BulkJob, blocked: Refusal): Promise<number> {
  if (blocked.code !== 'nothingToDo') return refused(ctx, blocked);
  const skipped = job.lines.filter((l) => l.state === 'skipped');
  const why = skipped
    .slice(0, 5)
    .map((l) => `${l.username}: ${l.detail ?? 'skipped'}`)
    .join('; ');
  const more = skipped.length > 5 ? `; and ${skipped.length - 5} more` : '';
  const open = skipped.some((l) => l.heldBack);
  return refused(ctx, blocked, open ? EXIT.unknown : EXIT.failed, `${blocked.message} (${why}${more})`);
}

/** The open change of a line, as the recovery checked it: `; extend of 14:02: no change seen yet…`. */
function openDetail(recovered: readonly Recovered[], lineId: string): string {
  for (const { job } of recovered) {
    const l = job.lines.find((x) => x.id === lineId);
    if (l)
      return `; the ${job.op} of ${job.createdAt.slice(0, 16).replace('T', ' ')} UTC: ${l.detail ?? 'unknown'}`;
  }
  return '';
}

/** A line as a delete would plan it: what it loses in its detail. */
const planDelete = (line: LineListItem, nowMs: number) =>
  planLine(toBulkLine(line), 'delete', { months: 1, connections: 1 }, [], nowMs);

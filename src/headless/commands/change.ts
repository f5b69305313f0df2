/**
 * create, trial, extend, upgrade, unsuspend, delete: through the store's own actions, so a script
 * gets the app's quote, confirm rules, change engine, intent log and journal. A single line runs as
 * the app's single change (action slice); `--stdin` as its bulk job (bulk slice).
 */
import {
  affordability,
  type BulkJob,
  type ChangeOp,
  deletedPaidTimeText,
  planLine,
  toBulkLine,
} from '../../domain/bulk';
import { RULES } from '../../domain/change-rules';
import { buildBody, fieldsFor, formErrors } from '../../domain/line-form';
import { parsePasteList } from '../../domain/paste-list';
import { ambiguityText } from '../../services/paste-lookup';
import { confirmBlocker, ruleBlocker } from '../../store/action-slice';
import type { AppStore } from '../../store/app-store';
import { bulkBlocker } from '../../store/bulk-slice';
import { unsettledRefusal } from '../../store/selectors';
import { type LineListItem, loaded } from '../../store/types';
import { EXIT } from '../failure';
import type { Failure } from '../output';
import type { Ctx } from '../session';
import { type StoreHelp, until, withStore } from '../store-session';
import { type ChangeParams, changeParams, FLAG_OF, invalid, pathOf } from './change-params';
import { changeText, exitOf, printQuote, printResults, type Quote, summaryText } from './change-report';

export function changeCommand(ctx: Ctx): Promise<number> {
  const op = ctx.run.command as ChangeOp;
  const params = changeParams(op, ctx.run.values);
  if ('exit' in params) return failed(ctx, params);
  return withStore(ctx, async (store, help) => {
    await recover(ctx, store);
    const s = store.getState();
    await Promise.all([s.loadAccount(), s.loadCatalog()]);
    const { account, packages } = store.getState();
    if (account.status !== 'ready')
      return failed(ctx, help.failure(account.status === 'error' ? account.error : ''));
    if (packages.status !== 'ready' && (op === 'extend' || op === 'create' || op === 'trial'))
      return failed(ctx, help.failure(packages.status === 'error' ? packages.error : ''));
    if (op === 'create' || op === 'trial') return createOne(ctx, store, help, params);
    if (ctx.run.values.stdin) return changeMany(ctx, store, help, params);
    return changeOne(ctx, store, help, params, ctx.run.args[0]!);
  });
}

function failed(ctx: Ctx, f: Failure): Promise<number> {
  ctx.out.fail(f);
  return Promise.resolve(f.exit);
}

/** Changes an earlier run left open are checked with the server before anything is sent. */
async function recover(ctx: Ctx, store: AppStore): Promise<void> {
  await store.getState().recoverIntents();
  for (const { job, unsent } of store.getState().recovery?.jobs ?? []) {
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
}

async function createOne(ctx: Ctx, store: AppStore, help: StoreHelp, p: ChangeParams): Promise<number> {
  const trial = p.op === 'trial';
  const kinds = (loaded(store.getState().packages) ?? []).filter((k) => k.is_trial === trial);
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
  store.getState().openAction({ op: p.op, body: buildBody(trial, values, pkg), pkg });
  return quoteAndSend(ctx, store, help);
}

async function changeOne(ctx: Ctx, store: AppStore, help: StoreHelp, p: ChangeParams, wanted: string) {
  const got = await help.lookupOne(wanted);
  if ('failure' in got) return failed(ctx, got.failure);
  const { line } = got;
  if (store.getState().unsettled.has(line.id))
    return failed(ctx, {
      code: 'unknown_outcome',
      // The key's disabled reason, word for word, then what a script can do about it.
      message: store.getState().held.has(line.id)
        ? `${line.username}: ${unsettledRefusal(store.getState(), line.id)}`
        : `${line.username}: ${unsettledRefusal(store.getState(), line.id)} (checked again just now${openDetail(store, line.id)}); nothing new is sent for it until the server shows what happened (see: linedesk pending)`,
      path: null,
      exit: EXIT.unknown,
    });
  store.getState().openAction({ op: p.op, line, months: p.months, connections: p.connections });
  return quoteAndSend(ctx, store, help);
}

/** A refusal by a confirm rule: the screen's sentence, alone; nothing quoted, nothing sent. */
const refused = (ctx: Ctx, rule: string, path: readonly string[] | null = null, exit: number = EXIT.failed) =>
  failed(ctx, { code: 'refused', message: `${rule}: nothing was sent`, path, exit });

/** The field a rule is about, for a script's JSON error. */
const RULE_PATH: Readonly<Record<string, readonly string[]>> = { [RULES.sameConnections]: ['connections'] };

/**
 * The single change: the rules first (a refusal is printed alone, before any quote), then its quote;
 * with --yes, one request through the engine, and its outcome.
 */
async function quoteAndSend(ctx: Ctx, store: AppStore, help: StoreHelp): Promise<number> {
  const { out, run } = ctx;
  const json = run.format === 'json';
  const balance = loaded(store.getState().account)?.credits ?? null;
  // --yes is the confirmation the app asks for by typing the username; what the app would not let
  // Enter send is refused here too, with or without --yes.
  const opened = store.getState().action!;
  if (opened.op === 'delete') store.getState().setActionTyped(opened.line!.username);
  // A rule that needs no cost refuses without waiting for one (the server's quote of a trial
  // line's upgrade is its own refusal, in other words than the screen's).
  await until(
    store,
    (s) =>
      ruleBlocker(s.action!) !== null ||
      s.action!.quote.status === 'ready' ||
      s.action!.quote.status === 'error',
  );
  const rule = ruleBlocker(store.getState().action!);
  if (rule) return refused(ctx, rule, RULE_PATH[rule] ?? null);
  const a = store.getState().action!;
  if (a.quote.status === 'error') {
    const f = help.failure(`No quote: ${a.quote.error}`);
    // A taken username is the server's answer about the username field.
    return failed(ctx, a.body && f.code === 'conflict' ? { ...f, path: ['username'] } : f);
  }
  const blocked = confirmBlocker(a, balance ?? undefined);
  if (blocked) return refused(ctx, blocked, RULE_PATH[blocked] ?? null);
  const body = a.body as { username?: string } | null;
  const job = { months: a.months, connections: a.connections };
  const quote: Quote = {
    op: a.op,
    target: help.target,
    estimate: a.estimate,
    total: loaded(a.quote)?.cost ?? 0,
    balance,
    rows: [
      {
        id: a.line?.id ?? null,
        username: a.line?.username ?? body?.username ?? '',
        change: a.line ? changeText(a.op, job, toBulkLine(a.line)) : changeText(a.op, job),
        cost: loaded(a.quote)?.cost ?? null,
        note:
          a.op === 'delete'
            ? ['deleted for good', a.line ? planDelete(a.line, ctx.now()).detail : undefined]
                .filter(Boolean)
                .join('; ')
            : '',
        skipped: false,
      },
    ],
    lost:
      a.op === 'delete' && a.line ? deletedPaidTimeText([planDelete(a.line, ctx.now())], ctx.now()) : null,
  };
  const yes = run.values.yes === true;
  await printQuote(out, quote, !yes, json);
  if (!yes) {
    out.message('Not sent: run it again with --yes to send it.');
    return EXIT.notConfirmed;
  }
  await store.getState().confirmAction();
  const done = store.getState().action!;
  const final = done.job!;
  await printResults(out, final, {
    json,
    created: done.phase === 'done' && a.body ? done.result?.line : undefined,
    notFound: [],
    now: ctx.now(),
    target: help.target,
  });
  if (done.message) out.message(done.message, done.phase === 'done' ? undefined : 'yellow');
  else out.message(summaryText(final));
  return exitOf(final, 0);
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
async function changeMany(ctx: Ctx, store: AppStore, help: StoreHelp, p: ChangeParams): Promise<number> {
  const { out, run } = ctx;
  const json = run.format === 'json';
  const items = await readItems(ctx);
  if (!items.length)
    return failed(ctx, {
      code: 'usage',
      message: 'Nothing on stdin: give ids or usernames, one per line',
      path: ['stdin'],
      exit: EXIT.usage,
    });
  const { found, ambiguous } = await help.lookup(items.map((i) => i.item));
  const notFound: string[] = [];
  const lines = new Map<string, LineListItem>();
  for (const { item, at } of items) {
    const l = found.get(item);
    const several = ambiguous.get(item);
    if (!l) {
      notFound.push(item);
      out.message(
        `stdin line ${at}: ${several ? ambiguityText(item, several) : `no line answers to "${item}"`}; left out, the others go on`,
        'yellow',
      );
    } else lines.set(l.id, l);
  }
  if (!lines.size)
    return failed(ctx, {
      code: 'line_not_found',
      message: 'None of the lines given was found',
      path: null,
      exit: EXIT.failed,
    });
  const s = store.getState();
  if (p.op === 'create' || p.op === 'trial') return EXIT.usage;
  s.openBulk(p.op, [...lines.values()].map(toBulkLine), { months: p.months, connections: p.connections });
  await until(store, (st) => st.bulk !== null && !st.bulk.quoting);
  // --yes is the typed count the app asks for before a bulk delete.
  const planned = store.getState().bulk!.job;
  if (planned.op === 'delete')
    store.getState().bulkSetTyped(String(planned.lines.filter((l) => l.state === 'pending').length));
  const b = store.getState().bulk!;
  const balance = loaded(store.getState().account)?.credits ?? null;
  // The rules first: a refusal is printed alone, before any quote.
  const blocked = bulkBlocker(b, balance ?? undefined);
  if (blocked) return refusedJob(ctx, b.job, blocked);
  const quote: Quote = {
    op: b.job.op,
    target: help.target,
    estimate: b.job.op === 'extend',
    total: affordability(b.job.lines, balance ?? Number.POSITIVE_INFINITY).total,
    balance,
    rows: b.job.lines.map((l) => ({
      id: l.id,
      username: l.username,
      change: changeText(b.job.op, b.job, l),
      cost: l.cost,
      note: l.detail ?? '',
      skipped: l.state === 'skipped',
    })),
    lost: b.job.op === 'delete' ? deletedPaidTimeText(b.job.lines, Date.parse(b.job.createdAt)) : null,
  };
  const yes = run.values.yes === true;
  await printQuote(out, quote, !yes, json);
  if (!yes) {
    out.message('Not sent: run it again with --yes to send it.');
    return EXIT.notConfirmed;
  }
  const stop = store.subscribe((st) => {
    const pr = st.bulk?.progress;
    if (pr && st.bulk?.phase === 'running')
      out.progress(
        `${b.job.op}: ${pr.done} done, ${pr.failed} failed, ${pr.unknown} unknown, ${pr.remaining} to go`,
      );
  });
  try {
    await store.getState().bulkStart();
  } finally {
    stop();
    out.clearProgress();
  }
  const final: BulkJob = store.getState().bulk!.job;
  await printResults(out, final, { json, notFound, now: ctx.now(), target: help.target });
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
 * A bulk job the rules refuse. "Nothing to do" says why line by line (the preview's notes); when
 * lines are left out because an earlier change to them is open, it is that change's code (exit 3).
 */
function refusedJob(ctx: Ctx, job: BulkJob, blocked: string): Promise<number> {
  // The screen's sentence names the key that picks the affordable lines; a script has none.
  const rule = blocked.startsWith(RULES.totalExceeds) ? RULES.totalExceeds : blocked;
  if (rule !== RULES.nothingToDo) return refused(ctx, rule);
  const skipped = job.lines.filter((l) => l.state === 'skipped');
  const why = skipped
    .slice(0, 5)
    .map((l) => `${l.username}: ${l.detail ?? 'skipped'}`)
    .join('; ');
  const more = skipped.length > 5 ? `; and ${skipped.length - 5} more` : '';
  const open = skipped.some((l) => /unknown outcome|open change|held/.test(l.detail ?? ''));
  return refused(ctx, `${rule} (${why}${more})`, null, open ? EXIT.unknown : EXIT.failed);
}

/** The open change of a line, as the recovery checked it: `; extend of 14:02: no change seen yet…`. */
function openDetail(store: AppStore, lineId: string): string {
  for (const { job } of store.getState().recovery?.jobs ?? []) {
    const l = job.lines.find((x) => x.id === lineId);
    if (l)
      return `; the ${job.op} of ${job.createdAt.slice(0, 16).replace('T', ' ')} UTC: ${l.detail ?? 'unknown'}`;
  }
  return '';
}

/** A line as a delete would plan it: what it loses in its detail. */
const planDelete = (line: LineListItem, nowMs: number) =>
  planLine(toBulkLine(line), 'delete', { months: 1, connections: 1 }, [], nowMs);

import { randomUUID } from 'node:crypto';
import type { CreateLineBody, CreateTrialBody, Line, LineListItem, Package } from '../api/contract';
import {
  Conflict,
  InsufficientBalance,
  LineNotFound,
  RequestErrors,
  RequestValidationError,
} from '../api/errors';
import { type BulkJob, type BulkLine, checkedNotApplied, SPENDS, toBulkLine } from '../domain/bulk';
import { belowMinimum, lineRule, RULES } from '../domain/change-rules';
import { extendEstimate } from '../domain/estimate';
import { credits } from '../domain/format';
import { type FieldId, typedText } from '../domain/line-form';
import { isNotYet } from '../domain/proof';
import { type Months, stepConnections, stepMonths } from '../domain/steps';
import type { Operation } from '../services/changes/journal';
import { describeError } from '../services/describe-error';
import type { GetState, SetState, StoreDeps } from './deps';
import { loaded } from './types';

export type Phase = 'review' | 'sending' | 'done' | 'failed' | 'unknown' | 'checking';

export interface ActionState {
  readonly op: Operation;
  /** The line acted on (extend, upgrade, unsuspend, delete). */
  readonly line: LineListItem | Line | null;
  /** Create and trial: the exact body, as simulated and as sent. */
  readonly body: CreateLineBody | CreateTrialBody | null;
  readonly pkg: Package | null;
  readonly months: Months;
  readonly connections: number;
  /** Delete: what the user typed to confirm. */
  readonly typed: string;
  readonly quote: {
    readonly status: 'idle' | 'loading' | 'ready' | 'error';
    readonly cost?: number;
    readonly error?: string;
  };
  /** The cost is the app's estimate (extend), not a server quote. */
  readonly estimate: boolean;
  readonly phase: Phase;
  readonly message: string | null;
  readonly result: {
    readonly line?: Line | LineListItem;
    readonly deducedCredits?: number;
    readonly newBalance?: number;
  } | null;
  /** The job of one line this change runs as, once confirmed (a check after an unknown outcome uses it). */
  readonly job: BulkJob | null;
}

export interface OpenAction {
  readonly op: Operation;
  readonly line?: LineListItem | Line;
  readonly body?: CreateLineBody | CreateTrialBody;
  readonly pkg?: Package;
  /** Where the dialog starts (1 month; one more connection than the line has): a script's values. */
  readonly months?: Months;
  readonly connections?: number;
}

export interface ActionSlice {
  readonly action: ActionState | null;
  openAction: (a: OpenAction) => void;
  adjustAction: (delta: 1 | -1) => void;
  setActionTyped: (text: string) => void;
  confirmAction: () => Promise<void>;
  recheckAction: () => Promise<void>;
  closeAction: () => void;
  /** A background check of the dialog's job: its outcome is shown if the dialog still waits for it. */
  actionJobChecked: (job: BulkJob) => void;
}

export { SPENDS };

/**
 * The rules that need no cost (the line, the typed confirmation, the numbers chosen): checked
 * first, so a refusal never waits for a quote and never comes after one.
 */
export function ruleBlocker(a: ActionState): string | null {
  if (a.phase !== 'review') return null;
  if (a.op === 'delete' && a.typed !== a.line?.username) return 'Type the username to confirm';
  if (!SPENDS.has(a.op)) return null;
  const rule = lineRule(a.op, a.line);
  if (rule) return rule;
  if (a.op === 'upgrade' && a.connections === a.line?.connections) return RULES.sameConnections;
  return null;
}

/**
 * Why confirm is disabled right now, or null. The contract's rules the app already knows are checked
 * here, before Enter: a package's minimum balance (we read it as "the balance must be at least the
 * larger of the cost and `min_balance`", as the sandbox does; the service's exact rule is not shown),
 * trial lines are neither extended nor given connections.
 */
export function confirmBlocker(a: ActionState, balance: number | undefined): string | null {
  const rule = ruleBlocker(a);
  if (rule || a.phase !== 'review' || !SPENDS.has(a.op)) return rule;
  if (a.quote.status === 'loading' || a.quote.status === 'idle') return 'Waiting for the cost';
  if (a.quote.status === 'error') return 'No cost known: Esc and try again';
  const cost = a.quote.cost ?? 0;
  if (balance !== undefined && cost > balance) return RULES.balanceTooLow;
  if (balance !== undefined && a.pkg && balance < a.pkg.min_balance)
    return belowMinimum(credits(a.pkg.min_balance));
  return null;
}

export function createActionSlice(set: SetState, get: GetState, deps: StoreDeps): ActionSlice {
  let quoteSeq = 0;
  const patch = (p: Partial<ActionState>) => {
    const a = get().action;
    if (a) set({ action: { ...a, ...p } });
  };

  /** Asks the server (create, trial, upgrade) or estimates (extend) what the action costs. */
  const quote = async () => {
    const a = get().action;
    if (!a) return;
    const id = ++quoteSeq;
    if (a.op === 'extend') {
      const est = extendEstimate(loaded(get().packages) ?? [], a.months, a.line?.connections ?? 1);
      patch(
        est
          ? { quote: { status: 'ready', cost: est.cost }, pkg: est.pkg }
          : { quote: { status: 'error', error: 'No package of that duration' } },
      );
      return;
    }
    if (!SPENDS.has(a.op)) return patch({ quote: { status: 'ready', cost: 0 } });
    patch({ quote: { status: 'loading' } });
    try {
      const r =
        a.op === 'upgrade'
          ? await deps.client.simulateUpgrade({ id: a.line!.id, new_connections: a.connections })
          : a.op === 'trial'
            ? await deps.client.simulateTrial(a.body as CreateTrialBody)
            : await deps.client.simulateCreate(a.body as CreateLineBody);
      if (id === quoteSeq) patch({ quote: { status: 'ready', cost: r.cost } });
    } catch (err) {
      if (id !== quoteSeq) return;
      patch({ quote: { status: 'error', error: describeError(err) } });
      if (a.body) routeToForm(err);
    }
  };

  /** Server errors that name a field go back to that field of the form. */
  const routeToForm = (err: unknown) => {
    const form = get().form;
    if (!form) return;
    const errors: Partial<Record<FieldId, string>> = {};
    if (err instanceof RequestErrors || err instanceof RequestValidationError) {
      for (const i of err.issues) errors[(i.path[0] ?? 'package') as FieldId] ??= i.message;
    } else if (err instanceof Conflict) errors.username = err.message;
    const first = Object.keys(errors)[0] as FieldId | undefined;
    if (first) set({ form: { ...form, errors: { ...form.errors, ...errors }, focus: first } });
  };

  /** The change as a job of one line: the same engine, intent log and journal as a bulk job. */
  const jobOf = (a: ActionState): BulkJob => {
    const body = a.body as { username?: string } | null;
    const item: BulkLine = a.line
      ? { ...toBulkLine(a.line), cost: a.quote.cost ?? null }
      : {
          id: `new:${body?.username ?? ''}`,
          username: body?.username ?? '',
          body: a.body!,
          before: { expMs: null, connections: 0, enabled: false, isTrial: a.op === 'trial' },
          cost: a.quote.cost ?? null,
          after: {},
          state: 'pending',
        };
    return {
      id: randomUUID(),
      op: a.op,
      months: a.months,
      connections: a.connections,
      target: get().target.id,
      createdAt: new Date((deps.now ?? Date.now)()).toISOString(),
      lines: [item],
    };
  };

  /** Shows a job's one line as the dialog's outcome. */
  const show = (job: BulkJob, server: Line | LineListItem | undefined, err: unknown) => {
    const l = job.lines[0]!;
    const checked = l.charge !== undefined && l.charge !== 'reply';
    if (l.state === 'done') {
      const spent =
        !SPENDS.has(job.op) || l.charge === 'reply'
          ? ''
          : l.deducedCredits !== undefined
            ? ` Charged ${credits(l.deducedCredits)} (from the balance).`
            : ' Charged, amount unknown.';
      patch({
        phase: 'done',
        job,
        result: {
          ...(server ? { line: server } : {}),
          ...(l.deducedCredits !== undefined ? { deducedCredits: l.deducedCredits } : {}),
          ...(l.newBalance !== undefined ? { newBalance: l.newBalance } : {}),
        },
        message:
          checked || l.detail?.startsWith('applied') ? `Applied: the server shows the change.${spent}` : null,
      });
      const acct = loaded(get().account);
      if (acct && l.newBalance !== undefined)
        set({ account: { status: 'ready', data: { ...acct, credits: l.newBalance } } });
      if (job.op === 'create' || job.op === 'trial') void get().refreshLines();
      return;
    }
    if (l.state === 'unknown') {
      const who = l.id.startsWith('new:') ? `username ${l.username}` : `line ${l.id} · ${l.username}`;
      const notYet = isNotYet(l);
      patch({
        phase: 'unknown',
        job,
        message: notYet
          ? `Outcome unknown: ${l.detail}. The service may still apply it, so it is not called "not applied" yet and nothing is re-sent; ${deps.watch ? 'linedesk keeps checking, and ' : ''}the line takes no new change until then. It stays in the intent log; look up ${who} (if you know what happened: linedesk pending --settle ${l.username} --as applied|not-applied --confirm ${l.username}).`
          : `Outcome unknown (${l.detail ?? 'no clear answer'}). Nothing is re-sent. It stays in the intent log and is checked again at the next start; look up ${who}.`,
      });
      return;
    }
    const notApplied = checkedNotApplied(l);
    patch({
      phase: 'failed',
      job,
      message: l.notSent
        ? `Not sent: ${l.detail?.replace(/^not sent: /, '')} Nothing reached the service; nothing was charged.`
        : notApplied
          ? `Not applied: the server shows no change and no charge (${l.detail}). Nothing was charged for it.`
          : err
            ? describeError(err)
            : (l.detail ?? 'Failed'),
    });
    if (err instanceof LineNotFound && get().action?.line) get().removeLine(get().action!.line!.id);
    if (err instanceof InsufficientBalance) void get().loadAccount();
    if (err) routeToForm(err);
  };

  return {
    action: null,

    openAction(o) {
      const line = o.line ?? null;
      set({
        action: {
          op: o.op,
          line,
          body: o.body ?? null,
          pkg: o.pkg ?? null,
          months: o.months ?? 1,
          connections: o.connections ?? stepConnections(line?.connections ?? 1, 1),
          typed: '',
          quote: { status: 'idle' },
          estimate: o.op === 'extend',
          phase: 'review',
          message: null,
          result: null,
          job: null,
        },
      });
      get().pushView({ id: 'action' });
      void quote();
    },

    adjustAction(delta) {
      const a = get().action;
      if (a?.phase !== 'review') return;
      if (a.op === 'extend') {
        patch({ months: stepMonths(a.months, delta) });
      } else if (a.op === 'upgrade') patch({ connections: stepConnections(a.connections, delta) });
      else return;
      void quote();
    },

    setActionTyped(text) {
      patch({ typed: typedText(text) });
    },

    /** Exactly one request per confirmation: anything but a ready review is a no-op. */
    async confirmAction() {
      const a = get().action;
      if (a?.phase !== 'review') return;
      const blocked = confirmBlocker(a, loaded(get().account)?.credits);
      if (blocked) return get().notify(blocked, 'info');
      if (get().readOnly) return get().notify(RULES.readOnly, 'info');
      const job = jobOf(a);
      patch({ phase: 'sending', message: null, job });
      let error: unknown = null;
      let server: Line | LineListItem | undefined;
      const final = await get().runChange(job, {
        onError: (_l, err) => {
          error = err;
        },
        onLine: (l, s) => {
          if (s) server = s;
          if (l.state === 'unknown' && get().action?.phase === 'sending')
            patch({
              phase: 'checking',
              message: 'No clear answer: checking the server (nothing is re-sent)…',
            });
        },
      });
      show(final, server, error);
    },

    /** Asks the server again after an unknown outcome; never re-sends. */
    async recheckAction() {
      const a = get().action;
      if (!a?.job || a.phase !== 'unknown') return;
      patch({ phase: 'checking' });
      let server: Line | LineListItem | undefined;
      const final = await get().checkChange(a.job, {
        onLine: (_l, s) => {
          if (s) server = s;
        },
      });
      show(final, server, null);
    },

    actionJobChecked(job) {
      const a = get().action;
      if (a?.job?.id === job.id && a.phase === 'unknown') show(job, undefined, null);
    },

    closeAction() {
      const a = get().action;
      if (!a) return;
      if (a.phase === 'sending' || a.phase === 'checking') return get().notify('Wait for the answer', 'info');
      // The view below shows again: the form it was opened from keeps what was typed, until created.
      set({ action: null });
      get().closeView('action');
      if (a.phase === 'done' && (a.op === 'create' || a.op === 'trial')) get().closeForm();
      if (a.phase === 'done') get().notify(doneText(a), 'success');
      if (a.phase === 'unknown')
        get().notify(
          'The outcome is still unknown: it stays in the intent log and is checked at the next start',
          'info',
        );
    },
  };
}

function doneText(a: ActionState): string {
  const r = a.result;
  const who = r?.line?.username ?? a.line?.username ?? '';
  const spent = r?.deducedCredits !== undefined ? ` for ${credits(r.deducedCredits)}` : '';
  return `${a.op} ${who}: done${spent}`;
}

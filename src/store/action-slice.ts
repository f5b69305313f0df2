import type { CreateLineBody, CreateTrialBody, Line, LineListItem, Package } from '../api/contract';
import {
  Conflict,
  InsufficientBalance,
  LineNotFound,
  RequestErrors,
  RequestValidationError,
} from '../api/errors';
import { type BulkJob, SPENDS } from '../domain/bulk';
import { RULES } from '../domain/change-rules';
import { credits } from '../domain/format';
import { type FieldId, typedText } from '../domain/line-form';
import { type Load, loaded } from '../domain/load';
import { type Months, stepConnections, stepMonths } from '../domain/steps';
import { notFoundAgain } from '../services/changes/fresh-lines';
import type { Operation } from '../services/changes/journal';
import type { OpenLines } from '../services/changes/open-lines';
import type { SendResult } from '../services/changes/outcome';
import type { Quote } from '../services/changes/quote';
import { type Change, validateCost, validateRules } from '../services/changes/validate';
import type { AppState } from './app-store';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectBalanceToJudge } from './selectors';

type Phase = 'review' | 'sending' | 'done' | 'failed' | 'unknown' | 'checking';

export interface ActionState {
  readonly op: Operation;
  /** The line acted on (extend, upgrade, unsuspend, delete). */
  readonly line: LineListItem | Line | null;
  /** When that line was read from the server, if known: read within a minute, it is not read again
   *  before the change is sent (older or unknown: the change service reads it again first). */
  readonly lineReadAt: number | null;
  /** Create and trial: the exact body, as simulated and as sent. */
  readonly body: CreateLineBody | CreateTrialBody | null;
  readonly pkg: Package | null;
  readonly months: Months;
  readonly connections: number;
  /** Delete: what the user typed to confirm. */
  readonly typed: string;
  /** The change service's quote (or labelled estimate), in the one loading shape. */
  readonly quote: Load<Quote>;
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
  /** When the screen read that line from the server (selectTargetReadAt), if known. */
  readonly readAt?: number | undefined;
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

/** The change the dialog describes, as the change service validates and quotes it. */
const changeOf = (a: ActionState): Change => ({
  op: a.op,
  line: a.line,
  body: a.body,
  months: a.months,
  connections: a.connections,
});

/**
 * The rules that need no cost (the line, the numbers chosen: the service's), after the dialog's own
 * typed confirmation: checked first, so a refusal never waits for a quote and never comes after one.
 */
export function ruleBlocker(a: ActionState, open: OpenLines | undefined): string | null {
  if (a.phase !== 'review') return null;
  if (a.op === 'delete' && a.typed !== a.line?.username) return 'Type the username to confirm';
  return validateRules(changeOf(a), open)?.message ?? null;
}

/**
 * Why confirm is disabled right now, or null: the rules, then the cost (waiting for it, or none), then
 * the rules a known cost decides (the service's `validateCost`: the balance, a package's minimum).
 */
export function confirmBlocker(
  a: ActionState,
  balance: number | undefined,
  open: OpenLines | undefined,
): string | null {
  const rule = ruleBlocker(a, open);
  if (rule || a.phase !== 'review' || !SPENDS.has(a.op)) return rule;
  if (a.quote.status === 'loading' || a.quote.status === 'idle') return 'Waiting for the cost';
  if (a.quote.status === 'error') return 'No cost known: go back and try again';
  return (
    validateCost(changeOf(a), { balance, cost: loaded(a.quote)?.cost ?? 0, pkg: a.pkg })?.message ?? null
  );
}

/**
 * Why the dialog's confirm is refused now, or null: `confirmBlocker` against the balance only while it
 * is the service's word (selectors.ts `selectBalanceToJudge`, the bulk preview's rule too). A stale
 * balance judges nothing, neither refuses nor allows: the dialog says it is not known now and that
 * the service refuses what it does not cover. The dialog, its confirm and the key gate all ask here.
 */
export const actionBlocker = (s: AppState): string | null =>
  s.action ? confirmBlocker(s.action, selectBalanceToJudge(s), s) : null;

export function createActionSlice(set: SetState, get: GetState, deps: StoreDeps): ActionSlice {
  const changes = deps.changes!;
  let quoteSeq = 0;
  const patch = (p: Partial<ActionState>) => {
    const a = get().action;
    if (a) set({ action: { ...a, ...p } });
  };

  /** Asks the change service what the action costs (the server's quote, or extend's estimate). */
  const quote = async () => {
    const a = get().action;
    if (!a) return;
    const id = ++quoteSeq;
    const packages = loaded(get().packages) ?? [];
    // Extend's estimate and a free change are known at once: drawn with the dialog, never "loading".
    let r = changes.quoteLocally(changeOf(a), packages);
    if (!r) {
      patch({ quote: { status: 'loading' } });
      r = await changes.quote(changeOf(a), packages);
      if (id !== quoteSeq) return;
    }
    if ('failure' in r) {
      patch({ quote: { status: 'error', error: r.failure } });
      if (a.body && r.error) routeToForm(r.error);
      return;
    }
    patch({ quote: { status: 'ready', data: r.quote }, ...(r.quote.pkg ? { pkg: r.quote.pkg } : {}) });
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
    if (first) get().formServerErrors(errors, first);
  };

  /** Shows a single change's outcome in the dialog, with what it changes beside it. */
  const show = (r: SendResult) => {
    const { job, line: l, server, error: err, message } = r;
    if (l.state === 'done') {
      patch({
        phase: 'done',
        job,
        result: {
          ...(server ? { line: server } : {}),
          ...(l.deducedCredits !== undefined ? { deducedCredits: l.deducedCredits } : {}),
          ...(l.newBalance !== undefined ? { newBalance: l.newBalance } : {}),
        },
        message,
      });
      if (l.newBalance !== undefined) get().balanceAfter(l.newBalance);
      if (job.op === 'create' || job.op === 'trial') void get().refreshLines({ afterChange: true });
      return;
    }
    if (l.state === 'unknown') return patch({ phase: 'unknown', job, message });
    patch({ phase: 'failed', job, message, ...(l.state === 'skipped' && server ? { line: server } : {}) });
    // Not sent for what the line is now (read again just before sending): its row is the server's
    // (store/changes/changes-slice.ts writes it for every job); one not found again leaves the page.
    if (l.state === 'skipped' && !l.heldBack && !server && job.op !== 'create' && job.op !== 'trial') {
      if (notFoundAgain(l)) get().removeLine(l.id);
    }
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
          lineReadAt: o.readAt ?? null,
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
      const blocked = actionBlocker(get());
      if (blocked) return get().notify(blocked, 'info');
      if (get().readOnly) return get().notify(RULES.readOnly, 'info');
      const r = await changes.send(changeOf(a), loaded(a.quote)?.cost ?? null, {
        ...(a.lineReadAt !== null ? { linesReadAt: a.lineReadAt } : {}),
        onStart: (job) => patch({ phase: 'sending', message: null, job }),
        onLine: (l) => {
          if (l.state === 'unknown' && get().action?.phase === 'sending')
            patch({
              phase: 'checking',
              message: 'No clear answer: checking the server (nothing is re-sent)…',
            });
        },
      });
      show(r);
    },

    /** Asks the server again after an unknown outcome; never re-sends. */
    async recheckAction() {
      const a = get().action;
      if (!a?.job || a.phase !== 'unknown') return;
      patch({ phase: 'checking' });
      show(await changes.recheck(a.job));
    },

    actionJobChecked(job) {
      const a = get().action;
      if (a?.job?.id === job.id && a.phase === 'unknown') show(changes.resultOf(job));
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

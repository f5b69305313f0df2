import type { CreateLineBody, CreateTrialBody, Line, LineListItem, Package } from '../api/contract';
import {
  Conflict,
  InsufficientBalance,
  LinedeskError,
  LineNotFound,
  RequestErrors,
  RequestValidationError,
} from '../api/errors';
import { extendEstimate } from '../domain/estimate';
import { type FieldId, typedText } from '../domain/line-form';
import { type Months, stepConnections, stepMonths } from '../domain/steps';
import type { GetState, SetState, StoreDeps } from './deps';
import { describeError } from './describe-error';
import type { JournalOutcome, Operation } from './journal';
import { reconcile } from './reconcile';
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
    readonly line?: Line;
    readonly deducedCredits?: number;
    readonly newBalance?: number;
  } | null;
}

export interface OpenAction {
  readonly op: Operation;
  readonly line?: LineListItem | Line;
  readonly body?: CreateLineBody | CreateTrialBody;
  readonly pkg?: Package;
}

export interface ActionSlice {
  readonly action: ActionState | null;
  openAction: (a: OpenAction) => void;
  adjustAction: (delta: 1 | -1) => void;
  setActionTyped: (text: string) => void;
  confirmAction: () => Promise<void>;
  recheckAction: () => Promise<void>;
  closeAction: () => void;
}

export const SPENDS: ReadonlySet<Operation> = new Set(['create', 'trial', 'extend', 'upgrade']);

/** Why confirm is disabled right now, or null. */
export function confirmBlocker(a: ActionState, balance: number | undefined): string | null {
  if (a.phase !== 'review') return null;
  if (a.op === 'delete' && a.typed !== a.line?.username) return 'Type the username to confirm';
  if (!SPENDS.has(a.op)) return null;
  if (a.quote.status === 'loading' || a.quote.status === 'idle') return 'Waiting for the cost';
  if (a.quote.status === 'error') return 'No cost known: Esc and try again';
  if (balance !== undefined && (a.quote.cost ?? 0) > balance) return 'Balance too low';
  if (a.op === 'upgrade' && a.connections === a.line?.connections)
    return 'Choose a different number of connections';
  return null;
}

export function createActionSlice(set: SetState, get: GetState, deps: StoreDeps): ActionSlice {
  let quoteSeq = 0;
  const patch = (p: Partial<ActionState>) => {
    const a = get().action;
    if (a) set({ action: { ...a, ...p } });
  };
  const journal = (a: ActionState, outcome: JournalOutcome, detail?: string) => {
    const body = a.body as { username?: string } | null;
    deps.journal?.append({
      time: new Date((deps.now ?? Date.now)()).toISOString(),
      target: get().target.baseUrl,
      operation: a.op,
      lineId: a.result?.line?.id ?? a.line?.id ?? null,
      username: a.result?.line?.username ?? a.line?.username ?? body?.username ?? null,
      quotedCost: SPENDS.has(a.op) ? (a.quote.cost ?? null) : null,
      estimate: a.estimate,
      deducedCredits: a.result?.deducedCredits ?? null,
      newBalance: a.result?.newBalance ?? null,
      outcome,
      ...(detail ? { detail } : {}),
      ...(body && 'bouquets' in body && Array.isArray(body.bouquets)
        ? { bouquets: body.bouquets as number[] }
        : {}),
    });
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
          ? { quote: { status: 'ready', cost: est.cost } }
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

  /** The server says what happened: the line, the charge and the new balance; refresh just that. */
  const applied = (a: ActionState, r: { line?: Line; deducedCredits?: number; newBalance?: number }) => {
    patch({ phase: 'done', result: r, message: null });
    journal(get().action!, 'applied');
    const acct = loaded(get().account);
    if (acct) {
      const delta = a.op === 'create' || a.op === 'trial' ? 1 : a.op === 'delete' ? -1 : 0;
      set({
        account: {
          status: 'ready',
          data: { ...acct, credits: r.newBalance ?? acct.credits, lines_count: acct.lines_count + delta },
        },
      });
    }
    if (a.op === 'delete') get().removeLine(a.line!.id);
    else if (r.line && a.op !== 'create' && a.op !== 'trial') get().replaceLine(r.line);
    else void get().refreshLines();
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
          months: 1,
          connections: stepConnections(line?.connections ?? 1, 1),
          typed: '',
          quote: { status: 'idle' },
          estimate: o.op === 'extend',
          phase: 'review',
          message: null,
          result: null,
        },
        modal: { kind: 'action' },
      });
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
      if (get().readOnly) return get().notify('Read-only mode: changes are disabled', 'info');
      patch({ phase: 'sending', message: null });
      try {
        const id = a.line?.id;
        switch (a.op) {
          case 'create':
            return applied(a, await deps.client.createLine(a.body as CreateLineBody));
          case 'trial':
            return applied(a, await deps.client.createTrial(a.body as CreateTrialBody));
          case 'extend':
            return applied(a, await deps.client.extendLine({ id: id!, duration: a.months }));
          case 'upgrade':
            return applied(a, await deps.client.upgradeLine({ id: id!, new_connections: a.connections }));
          case 'unsuspend':
            return applied(a, { line: await deps.client.unsuspendLine({ id: id! }) });
          case 'delete':
            await deps.client.deleteLine({ id: id! });
            return applied(a, {});
        }
      } catch (err) {
        const outcome = err instanceof LinedeskError ? err.outcome : 'unknown';
        if (outcome === 'unknown') {
          // It may have been applied: never re-send; ask the server first.
          patch({
            phase: 'unknown',
            message: `No clear answer (${describeError(err)}). Checking the server…`,
          });
          journal(get().action!, 'unknown', describeError(err));
          await get().recheckAction();
          return;
        }
        patch({ phase: 'failed', message: describeError(err) });
        journal(get().action!, 'rejected', describeError(err));
        if (err instanceof LineNotFound && a.line) get().removeLine(a.line.id);
        if (err instanceof InsufficientBalance) void get().loadAccount();
        routeToForm(err);
      }
    },

    /** Looks the line up and reports "applied" or "not applied"; never re-sends. */
    async recheckAction() {
      const a = get().action;
      if (!a || (a.phase !== 'unknown' && a.phase !== 'checking')) return;
      patch({ phase: 'checking' });
      try {
        const verdict = await reconcile(deps.client, {
          op: a.op,
          ...(a.line
            ? {
                before: {
                  id: a.line.id,
                  expMs: a.line.exp_date?.ms ?? null,
                  connections: a.line.connections,
                },
              }
            : {}),
          ...(a.body ? { username: (a.body as { username: string }).username } : {}),
          connections: a.connections,
        });
        const now = get().action!;
        if (verdict.applied) {
          patch({
            phase: 'done',
            result: { ...(verdict.line ? { line: verdict.line as Line } : {}) },
            message: 'Applied: the server shows the change.',
          });
          journal(get().action!, 'applied', 'reconciled after an unknown outcome');
          void get().loadAccount();
          void get().refreshLines();
        } else {
          patch({
            phase: 'failed',
            message: 'Not applied: the server shows no change. Nothing was charged for it.',
          });
          journal(now, 'not applied', 'reconciled after an unknown outcome');
        }
      } catch (err) {
        patch({
          phase: 'unknown',
          message: `Still unknown: the server could not be asked (${describeError(err)}). r checks again.`,
        });
      }
    },

    closeAction() {
      const a = get().action;
      if (!a) return;
      if (a.phase === 'sending' || a.phase === 'checking') return get().notify('Wait for the answer', 'info');
      if (a.phase === 'unknown') return get().notify('The outcome is unknown: r checks the server', 'info');
      const backToForm = (a.op === 'create' || a.op === 'trial') && a.phase !== 'done' && get().form;
      set({ action: null, modal: backToForm ? { kind: 'form' } : null });
      if (a.phase === 'done' && (a.op === 'create' || a.op === 'trial')) set({ form: null });
      if (a.phase === 'done') get().notify(doneText(a), 'success');
    },
  };
}

function doneText(a: ActionState): string {
  const r = a.result;
  const who = r?.line?.username ?? a.line?.username ?? '';
  const spent = r?.deducedCredits !== undefined ? ` for ${r.deducedCredits} credits` : '';
  return `${a.op} ${who}: done${spent}`;
}

import type { Package } from '../api/contract';
import {
  DEFAULT_WINDOW,
  LOW_BALANCE_RULE,
  parseLowBalance,
  planRenewals,
  type RenewalsPlan,
  type RenewalWindow,
  stepWindow,
} from '../domain/renewals';
import { pageStop } from '../domain/scroll';
import { type RenewalsItem, renewalsItemsOf, rowStops } from '../present/list-layouts';
import { describeError } from '../services/describe-error';
import { fetchRenewals, type RenewalsFound } from '../services/renewals-fetch';
import type { AppState } from './app-store';
import { selectBalanceToJudge } from './balance-selectors';
import type { GetState, SetState, StoreDeps } from './deps';
import { keptForLast, type Load, loaded } from './types';
import { drawnCountOf } from './ui-slice';

export interface RenewalsSlice {
  readonly renewals: Load<RenewalsFound & { readonly at: number }>;
  readonly renewalsWindow: RenewalWindow;
  /** The renewal length the costs are estimated for (the bulk dialog adjusts the job's own). */
  readonly renewalsMonths: number;
  readonly renewalsCursor: number;
  readonly lowBalance: number | null;
  loadRenewals: () => Promise<void>;
  /** `[` / `]`: the expiring window a step shorter or longer; saved in the config. */
  stepRenewalsWindow: (delta: 1 | -1) => void;
  setRenewalsWindow: (patch: Partial<RenewalWindow>) => void;
  moveRenewalsCursor: (delta: number) => void;
  setLowBalance: (n: number | null) => void;
  /** `:lowbalance TEXT`: checked (digits only, within range), saved, then said; or why not. */
  setLowBalanceText: (text: string) => void;
}

export function createRenewalsSlice(set: SetState, get: GetState, deps: StoreDeps): RenewalsSlice {
  const now = deps.now ?? Date.now;
  const settings = deps.settings?.read();
  let seq = 0;
  /** True when saved (or there is nowhere to save); otherwise the flash says why not. */
  const save = (patch: Parameters<NonNullable<StoreDeps['settings']>['save']>[0]) => {
    const error = deps.settings?.save(patch) ?? null;
    if (error) get().notify(`Not saved: ${error}`, 'error');
    return error === null;
  };
  return {
    renewals: { status: 'idle' },
    renewalsWindow: settings?.window ?? DEFAULT_WINDOW,
    renewalsMonths: 1,
    renewalsCursor: 0,
    lowBalance: settings?.lowBalance ?? null,

    async loadRenewals() {
      const id = ++seq;
      const data = loaded(get().renewals);
      set({ renewals: { status: 'loading', data } });
      try {
        const at = now();
        const found = await fetchRenewals(deps.client, get().renewalsWindow, at, () => id !== seq);
        if (id !== seq) return;
        set({ renewals: { status: 'ready', data: { ...found, at } } });
        get().moveRenewalsCursor(0);
      } catch (err) {
        if (id !== seq) return;
        deps.logError?.('loadRenewals', err);
        set({ renewals: { status: 'error', error: describeError(err), data } });
      }
    },

    stepRenewalsWindow(delta) {
      const w = get().renewalsWindow;
      get().setRenewalsWindow({ withinDays: stepWindow(w.withinDays, delta) });
    },

    setRenewalsWindow(patch) {
      const w = { ...get().renewalsWindow, ...patch };
      set({ renewalsWindow: w });
      save({ window: w });
      void get().loadRenewals();
    },

    moveRenewalsCursor(delta) {
      const n = selectRenewalsPlan(get())?.rows.length ?? 0;
      set({ renewalsCursor: Math.max(0, Math.min(n - 1, get().renewalsCursor + delta)) });
    },

    setLowBalance(n) {
      set({ lowBalance: n });
      save({ lowBalance: n });
    },

    setLowBalanceText(text) {
      const n = parseLowBalance(text);
      if (n === undefined) return get().notify(`lowbalance: ${LOW_BALANCE_RULE} (lowbalance 500)`, 'error');
      set({ lowBalance: n });
      // A threshold not saved is not announced: the flash keeps the reason.
      if (!save({ lowBalance: n })) return;
      get().notify(n === null ? 'No low-balance warning' : `The header warns below ${n} credits`, 'info');
    },
  };
}

type PlanInput = Pick<
  AppState,
  'renewals' | 'renewalsMonths' | 'renewalsWindow' | 'packages' | 'account' | 'bulk' | 'balanceAt'
>;
const NO_PACKAGES: readonly Package[] = [];
const NO_ITEMS = { items: [], stops: [] } as const;
/**
 * The view's rows, priced, its items as drawn (present/list-layouts.ts: a heading per group that has
 * lines, then its lines) and where its lines are among them: one cache, worked out again only when
 * what the plan is built from changed.
 */
const laidOutFor = keptForLast(
  (
    data: RenewalsFound & { readonly at: number },
    packages: readonly Package[],
    balance: number | null,
    months: PlanInput['renewalsMonths'],
    window: PlanInput['renewalsWindow'],
  ) => {
    const plan = planRenewals(data, packages, months, balance, window, data.at);
    const items = renewalsItemsOf(plan);
    return { plan, items, stops: rowStops(items) };
  },
);
function laidOut(s: PlanInput) {
  const data = loaded(s.renewals);
  if (!data) return null;
  // What the balance covers is judged as every change is: by the balance while it is the service's
  // word, by none while it is stale (covers none: the view says it is not known).
  const balance = selectBalanceToJudge(s) ?? null;
  return laidOutFor(data, loaded(s.packages) ?? NO_PACKAGES, balance, s.renewalsMonths, s.renewalsWindow);
}

/** The view's rows, priced. */
export const selectRenewalsPlan = (s: PlanInput): RenewalsPlan | null => laidOut(s)?.plan ?? null;

/** The view's items as drawn and where its lines are among them (the page keys move over them). */
export const selectRenewalsItems = (
  s: PlanInput,
): { readonly items: readonly RenewalsItem[]; readonly stops: readonly number[] } => laidOut(s) ?? NO_ITEMS;

/** How many lines a page key (`direction`) moves the cursor by: a page of the rows drawn, headings
 *  counted (domain/scroll.ts `pageStop`); 0 while the view has no count for the size now. */
export function renewalsPageDelta(s: AppState, direction: 1 | -1): number {
  const { rows } = drawnCountOf(s, 'renewals');
  if (rows === null) return 0;
  const { stops } = selectRenewalsItems(s);
  return pageStop(rows, stops, s.renewalsCursor, direction) - s.renewalsCursor;
}

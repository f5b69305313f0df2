import { RULES } from '../domain/change-rules';
import type { AppState } from '../store/app-store';
import type { UiEffects } from './effects';

export type Scope =
  | 'global'
  | 'lines'
  | 'detail'
  | 'account'
  | 'packages'
  | 'bouquets'
  | 'search'
  | 'palette'
  | 'help'
  | 'copy'
  | 'message'
  | 'journal'
  | 'form'
  | 'picker'
  | 'action'
  | 'marks'
  | 'renewals'
  | 'find'
  | 'bulk'
  | 'resume'
  | 'profiles'
  | 'profileAdd'
  | 'note'
  | 'columns'
  /** The terminal is smaller than the layout needs (present/min-size.ts): only these keys work. */
  | 'small'
  | 'output'
  /** The first start's welcome (ui/screens/WelcomeScreen.tsx): the sandbox or an account. */
  | 'welcome'
  /** The welcome's account fields (base URL, API key): text is typed, these keys are not. */
  | 'connect';

export type Group = 'App' | 'Navigate' | 'Find' | 'Marks' | 'Line' | 'Copy' | 'Input';

/** Why a command cannot run now (said in the flash line, and it leaves the footer), or null. */
export type Disabled = (s: AppState) => string | null;
export type Run = (s: AppState, fx: UiEffects) => void;

export interface Command<I extends string = string> {
  readonly id: I;
  /** Key names: single characters ('j', 'G', '?'), or 'up' 'down' 'left' 'right' 'pageup' 'pagedown'
   *  'home' 'end' 'enter' 'escape' 'space' 'tab' 'backspace' 'delete', or 'ctrl+x'. */
  readonly keys: readonly string[];
  /** Where the binding works: dispatch, footer, help and docs/KEYS.md all read this one list (the
   *  first is where docs/KEYS.md lists it). */
  readonly scopes: readonly Scope[];
  readonly label: string;
  readonly group: Group;
  /** What the command does. Dispatch calls it only when `disabled` gives no reason. */
  readonly run: Run;
  /** Aware of marks: with lines marked a line change is a bulk job and judged by its preview. */
  readonly disabled?: Disabled;
  /** Shown in the footer of its scope (the footer is short; help shows everything). A number is its
   *  priority (`true` is 1): where the footer is too narrow, the lowest go first, the rest keep
   *  their order. The keys used most (help, copy, the note) outlive the rest. */
  readonly footer?: boolean | number;
  /** Changes or removes data; help marks it. */
  readonly danger?: boolean;
  /** A printable key that stays a command while text is being typed (the picker's Space). */
  readonly overText?: boolean;
  /** Confirms a change that spends credits or deletes: keys/confirm-gate.ts decides whether this
   *  key, as it arrived, could have been meant for the dialog on screen. */
  readonly confirms?: boolean;
}

type Extra = Partial<Pick<Command, 'disabled' | 'footer' | 'danger' | 'overText' | 'confirms'>>;

/** One command: its id's literal type is kept, so the table's ids form a union (CommandId). */
export const c = <const I extends string>(
  id: I,
  keys: readonly string[],
  scopes: Scope | readonly Scope[],
  group: Group,
  label: string,
  run: Run,
  extra: Extra = {},
): Command<I> => ({
  id,
  keys,
  scopes: typeof scopes === 'string' ? [scopes] : scopes,
  group,
  label,
  run,
  ...extra,
});

/** Disabled while `select` finds no line (under the cursor, in the detail, among the matches). */
export const needsLine =
  (select: (s: AppState) => unknown): Disabled =>
  (s) =>
    select(s) ? null : 'No line under the cursor';

export const READ_ONLY = RULES.readOnly;
/** Disabled in read-only mode, otherwise always available. */
export const writes: Disabled = (s) => (s.readOnly ? READ_ONLY : null);

/**
 * A confirm dialog the terminal is too small to show whole (its line, cost and balance) cannot be
 * confirmed (keys/confirm-gate.ts holds the key back too): its confirm key is neither offered nor run.
 */
export const shownWhole: Disabled = (s) => (s.guard?.hidden ? `Not confirmed: ${s.guard.hidden}` : null);

/** Footer priorities above the default (1): kept longest where the footer is narrow. */
export const FOOTER = { most: 3, often: 2 } as const;

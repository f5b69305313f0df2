import type { Account, BouquetsResponse, Line, LineListItem, LinesPage, Package } from '../api/contract';
import type { Tone } from '../present/tokens';

export type { Load } from '../domain/load';
export { failedLast, loaded } from '../domain/load';

/**
 * The views on the stack (store/view-stack.ts): screens, which fill the body, and dialogs, opened
 * over the view below (in its place, or drawn under it: the UI's registration says which). A view's
 * id is also the scope of its commands in the command table.
 */
export type ScreenView =
  | { readonly id: 'lines' }
  | {
      readonly id: 'detail';
      readonly line: LineListItem | Line;
      /** When the line was read from the server (epoch ms), if known. */
      readonly readAt?: number;
    }
  | { readonly id: 'account' }
  | { readonly id: 'packages' }
  | { readonly id: 'bouquets' }
  | { readonly id: 'journal' }
  | { readonly id: 'marks' }
  | { readonly id: 'renewals' }
  | { readonly id: 'find' };
export type ScreenId = ScreenView['id'];

/** Every screen once: keyed by `ScreenId`, so the compiler holds it to the union, no more and no less. */
const SCREEN_TABLE: { readonly [id in ScreenId]: true } = {
  lines: true,
  detail: true,
  account: true,
  packages: true,
  bouquets: true,
  journal: true,
  marks: true,
  renewals: true,
  find: true,
};
/** The screens' ids (a screen's keys work together with the global ones: keys/dispatch.ts). */
export const SCREEN_IDS = Object.keys(SCREEN_TABLE) as readonly ScreenId[];

export const DIALOG_IDS = [
  'help',
  'palette',
  'copy',
  'message',
  'form',
  'picker',
  'action',
  'bulk',
  'resume',
  'profiles',
  'profileAdd',
  'note',
  'columns',
  'output',
] as const;
export type DialogId = (typeof DIALOG_IDS)[number];
export interface DialogView {
  readonly id: DialogId;
}

export type View = ScreenView | DialogView;
export type ViewId = View['id'];

export type { Tone } from '../present/tokens';
export interface Flash {
  readonly text: string;
  readonly tone: Tone;
  readonly id: number;
}

export type { StatusCounts } from '../services/account';
export type { LinesQuery } from '../services/lines-query';
export { STATUS_VIEWS } from '../services/lines-query';
export type { Target } from '../services/target';

export type { Account, BouquetsResponse, Line, LineListItem, LinesPage, Package };

/**
 * `f` kept for its last inputs: the same result (the same object, so a component may select it) while
 * each input is the same (===) as the last call's; worked out again when one differs.
 */
export function keptForLast<I extends readonly unknown[], R>(f: (...inputs: I) => R): (...inputs: I) => R {
  let last: { readonly inputs: I; readonly result: R } | null = null;
  return (...inputs) => {
    if (last && inputs.every((v, i) => v === last!.inputs[i])) return last.result;
    const result = f(...inputs);
    last = { inputs, result };
    return result;
  };
}

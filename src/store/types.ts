import type { Account, BouquetsResponse, Line, LineListItem, LinesPage, Package } from '../api/contract';

export type { Load } from '../domain/load';
export { loaded } from '../domain/load';

export type Screen =
  | { readonly id: 'lines' }
  | { readonly id: 'detail'; readonly line: LineListItem | Line }
  | { readonly id: 'account' }
  | { readonly id: 'packages' }
  | { readonly id: 'bouquets' }
  | { readonly id: 'journal' }
  | { readonly id: 'marks' }
  | { readonly id: 'renewals' }
  | { readonly id: 'find' };
export type ScreenId = Screen['id'];

/** One modal at a time, or none. */
export type Modal =
  /** `from`: the dialog help was opened over (a form), shown again when help closes. */
  | { readonly kind: 'help'; readonly from?: Exclude<Modal, null | { readonly kind: 'help' }> }
  | { readonly kind: 'palette' }
  | { readonly kind: 'copy' }
  | { readonly kind: 'message' }
  | { readonly kind: 'form' }
  | { readonly kind: 'picker' }
  | { readonly kind: 'action' }
  | { readonly kind: 'bulk' }
  | { readonly kind: 'resume' }
  | { readonly kind: 'profiles' }
  | { readonly kind: 'profileAdd' }
  | { readonly kind: 'note' }
  | null;

/**
 * A flash's tone, also said in a word (NO_COLOR): `warning` is work done with something left to say
 * ("Marked 28 of 30; not found: …"), `error` only what failed. A partial success is never an error.
 */
export type Tone = 'info' | 'success' | 'warning' | 'error';
export interface Flash {
  readonly text: string;
  readonly tone: Tone;
  readonly id: number;
}

export type { StatusCounts } from '../services/account';
export type { LinesQuery, StatusView } from '../services/lines-query';
export { STATUS_VIEWS } from '../services/lines-query';
export type { Target } from '../services/target';

export type { Account, BouquetsResponse, Line, LineListItem, LinesPage, Package };

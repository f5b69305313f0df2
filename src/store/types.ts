import {
  type Account,
  type BouquetsResponse,
  LINE_STATUSES,
  type Line,
  type LineListItem,
  type LineStatusFilter,
  type LinesPage,
  type LineTypeFilter,
  type OrderBy,
  type OrderType,
  type Package,
} from '../api/contract';
import type { Tone } from '../present/tokens';

export type { Load } from '../domain/load';
export { loaded } from '../domain/load';

/**
 * The views on the stack (store/view-stack.ts): screens, which fill the body, and dialogs, opened
 * over the view below (in its place, or drawn under it: the UI's registration says which). A view's
 * id is also the scope of its commands in the command table.
 */
export type ScreenView =
  | { readonly id: 'lines' }
  | { readonly id: 'detail'; readonly line: LineListItem | Line }
  | { readonly id: 'account' }
  | { readonly id: 'packages' }
  | { readonly id: 'bouquets' }
  | { readonly id: 'journal' }
  | { readonly id: 'marks' }
  | { readonly id: 'renewals' }
  | { readonly id: 'find' };
export type ScreenId = ScreenView['id'];

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

export type { Target } from '../services/deps';

/** The status filters of the lines browser: the API's, and `expired`, a view the app builds
 *  (services/expired-view.ts) because the API has no filter for it. */
export const STATUS_VIEWS = [...LINE_STATUSES, 'expired'] as const;
export type StatusView = LineStatusFilter | 'expired';

export interface LinesQuery {
  readonly search: string;
  readonly status: StatusView;
  readonly type: LineTypeFilter;
  readonly orderBy: OrderBy;
  readonly orderType: OrderType;
}

export interface StatusCounts {
  readonly all: number;
  readonly active: number;
  readonly suspended: number;
  readonly expiring: number;
  readonly premium: number;
  readonly trial: number;
  /** Counted by walking the list sorted by expiry (the API has no filter): null when it could not be. */
  readonly expired: number | null;
}

export type { Account, BouquetsResponse, Line, LineListItem, LinesPage, Package };

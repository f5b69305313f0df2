/**
 * The one stack of views (screens and dialogs alike), as pure functions the ui slice's actions apply.
 * The stack holds screens first and dialogs after them: the browser is always at the bottom, and a
 * dialog belongs to the screen under it. Whatever is below the top keeps its state (cursors, scroll
 * and typed values live in their slices), so taking the top away returns to where the user was:
 * help to the form it was opened over, the picker to the form, a line to the find results it was
 * opened from.
 */
import {
  DIALOG_IDS,
  type DialogId,
  type DialogView,
  type ScreenId,
  type ScreenView,
  type View,
  type ViewId,
} from './types';

type Stack = readonly View[];

const DIALOGS: ReadonlySet<ViewId> = new Set(DIALOG_IDS);
export const isDialog = (v: View): v is DialogView => DIALOGS.has(v.id);
export const isScreen = (v: View): v is ScreenView => !DIALOGS.has(v.id);

/** The browser, at the bottom of every stack. */
export const ROOT: Stack = [{ id: 'lines' }];

/** Where the dialogs on top begin (the screens are below). */
const dialogsFrom = (stack: Stack): number => {
  let i = stack.length;
  while (i > 1 && isDialog(stack[i - 1]!)) i--;
  return i;
};

/**
 * `view` on top. A dialog goes on top of all (the same dialog on top stays as it is). A screen goes
 * on top of the screens, under the dialogs on top (one opened by something else, such as the resume
 * dialog at start, stays in front); a screen already on the stack is gone back to, never stacked
 * twice.
 */
export function pushed(stack: Stack, view: View): Stack {
  if (isDialog(view)) return stack.at(-1)?.id === view.id ? stack : [...stack, view];
  const at = dialogsFrom(stack);
  const screens = stack.slice(0, at);
  const again = screens.findIndex((v) => v.id === view.id);
  return [...(again >= 0 ? screens.slice(0, again) : screens), view, ...stack.slice(at)];
}

/** Without the view on top (the browser at the bottom stays). */
export const popped = (stack: Stack): Stack => (stack.length > 1 ? stack.slice(0, -1) : stack);

/** Without the topmost view `id`, wherever it is; the views above it stay. */
export function without(stack: Stack, id: ViewId): Stack {
  const at = stack.findLastIndex((v) => v.id === id);
  return at > 0 ? [...stack.slice(0, at), ...stack.slice(at + 1)] : stack;
}

/** Top-level navigation (1–6, :lines…): the browser at the bottom, the chosen screen above it. */
export function navigated(stack: Stack, id: Exclude<ScreenId, 'detail'>): Stack {
  const dialogs = stack.slice(dialogsFrom(stack));
  return [...ROOT, ...(id === 'lines' ? [] : [{ id } as ScreenView]), ...dialogs];
}

/** The view on top: its commands come first. */
export const topView = (s: { readonly views: Stack }): View => s.views.at(-1)!;

/** The screen under the dialogs: the one a line change applies to, the one `r` refreshes. */
export const selectScreen = (s: { readonly views: Stack }): ScreenView => s.views.findLast(isScreen)!;

/** The dialog on top, or null when a screen is. */
export const selectDialog = (s: { readonly views: Stack }): DialogId | null => {
  const top = topView(s);
  return isDialog(top) ? top.id : null;
};

/**
 * What takes typing and keys first: the browser's search field while it is open on top ('search'),
 * else the view on top. commands/text-takes.ts `activeScopes` turns it into the scopes a key is looked up in.
 */
export const focusedView = (s: {
  readonly views: Stack;
  readonly searchOpen: boolean;
}): ViewId | 'search' => {
  const top = topView(s);
  return top.id === 'lines' && s.searchOpen ? 'search' : top.id;
};

/** The ids on the stack, bottom first. */
export const viewIds = (s: { readonly views: Stack }): ViewId[] => s.views.map((v) => v.id);

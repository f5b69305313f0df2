import { type Command, type CommandId, lookup, type Scope } from '../commands/keymap';
import { FIELDS } from '../domain/line-form';
import type { AppState } from '../store/app-store';
import { focusedView, isDialog, topView } from '../store/view-stack';
import { isEditKey } from './text-edit';

type DispatchState = Pick<AppState, 'views' | 'searchOpen' | 'form' | 'action' | 'bulk'>;

/**
 * Ink broadcasts every key to every useInput handler and none can consume it, so the app has one
 * root handler that resolves a key here, from the view stack: a view's id is its commands' scope.
 * The dialog on top takes keys alone; the browser's open search field alone; a screen on top, then
 * global keys. First match wins.
 */
export function activeScopes(s: DispatchState): Scope[] {
  const focus = focusedView(s);
  if (focus === 'search') return ['search'];
  const top = topView(s);
  return isDialog(top) ? [top.id] : [top.id, 'global'];
}

/**
 * Where typed text goes now: a text field with a caret ('field': its editing keys come before any
 * command), typed text where commands come first ('store': the picker's filter, the delete
 * confirmation), or nowhere (keys are commands). Both are edited by keys/input.ts.
 */
export function textTarget(s: DispatchState): 'field' | 'store' | null {
  const scope = activeScopes(s)[0];
  if (scope === 'search' || scope === 'palette' || scope === 'profileAdd' || scope === 'note') return 'field';
  if (scope === 'form') return FIELDS.find((f) => f.id === s.form?.focus)?.kind === 'text' ? 'field' : null;
  if (scope === 'picker') return 'store';
  if (scope === 'action') return s.action?.op === 'delete' && s.action.phase === 'review' ? 'store' : null;
  if (scope === 'bulk') return s.bulk?.job.op === 'delete' && s.bulk.phase === 'preview' ? 'store' : null;
  return null;
}

const isPrintable = (key: string) => key === 'space' || [...key].length === 1;

/**
 * The one rule for keys and typed text: whether the text typed now (`textTarget`) takes `key` ahead
 * of `cmd`, a command of the active scopes bound to it. A field takes its editing keys before any
 * command; typed text takes a printable key unless the command is made to work over text (the
 * picker's Space). Enter, Esc, arrows a field does not edit, PgDn and Ctrl-keys stay commands, and
 * Ctrl-C is never taken. Dispatch runs by it, and the footer offers only what it leaves.
 */
export function textTakes(s: DispatchState, key: string, cmd?: Pick<Command, 'overText'>): boolean {
  if (key === 'ctrl+c') return false;
  const target = textTarget(s);
  if (target === 'field' && isEditKey(key)) return true;
  return target !== null && isPrintable(key) && !cmd?.overText;
}

export function resolveKey(s: DispatchState, key: string): Command<CommandId> | undefined {
  // Ctrl-C quits from anywhere, a dialog or a text field included.
  if (key === 'ctrl+c') return lookup('global', key);
  for (const scope of activeScopes(s)) {
    const cmd = lookup(scope, key);
    if (cmd && !textTakes(s, key, cmd)) return cmd;
  }
  return undefined;
}

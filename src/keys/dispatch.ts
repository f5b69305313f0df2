import type { AppState } from '../store/app-store';
import { type Command, lookup, type Scope } from './keymap';

/**
 * Ink broadcasts every key to every useInput handler and none can consume it, so the app has one
 * root handler that resolves a key here: modal → focused text input → screen → global; first wins.
 */
export function activeScopes(s: Pick<AppState, 'modal' | 'screens' | 'searchOpen'>): Scope[] {
  if (s.modal) return [s.modal.kind];
  const screen = s.screens.at(-1)!.id;
  if (screen === 'lines' && s.searchOpen) return ['search'];
  return [screen, 'global'];
}

/** Scopes whose unbound keys are text for a focused input rather than commands. */
export const TEXT_SCOPES: ReadonlySet<Scope> = new Set(['search', 'palette']);

export function resolveKey(
  s: Pick<AppState, 'modal' | 'screens' | 'searchOpen'>,
  key: string,
): Command | undefined {
  // Ctrl-C quits from anywhere, a modal or a text field included.
  if (key === 'ctrl+c') return lookup('global', key);
  for (const scope of activeScopes(s)) {
    const cmd = lookup(scope, key);
    if (cmd) return cmd;
  }
  return undefined;
}

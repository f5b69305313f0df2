import { activeScopes, resolveKey, TEXT_SCOPES } from '../keys/dispatch';
import { type InkKey, keyName } from '../keys/key-name';
import type { AppStore } from '../store/app-store';
import { DISABLED, HANDLERS, type UiEffects } from './handlers';

/** Runs one key through the keymap: a disabled command explains itself in the flash line. */
function runKey(store: AppStore, name: string, effects: UiEffects): void {
  const state = store.getState();
  const cmd = resolveKey(state, name);
  if (!cmd) {
    // Unbound keys in a text field are typing, handled by the field itself.
    if (!TEXT_SCOPES.has(activeScopes(state)[0]!) && name.length === 1 && name !== ' ') {
      state.notify(`No command on "${name}" here; ? shows the keys`, 'info');
    }
    return;
  }
  const reason = DISABLED[cmd.id]?.(state);
  if (reason) {
    state.notify(reason, 'info');
    return;
  }
  HANDLERS[cmd.id]!(state, effects);
}

/**
 * The app's one input handler. Keys typed fast (or over a slow SSH link) can arrive as one chunk:
 * they are taken one by one, and once a key opens a text field the rest of the chunk is typed into it.
 */
export function handleInput(store: AppStore, input: string, key: InkKey, effects: UiEffects): void {
  const name = keyName(input, key);
  if (name !== null) {
    runKey(store, name, effects);
    return;
  }
  if (key.ctrl || input.length < 2) return;
  const startedInText = TEXT_SCOPES.has(activeScopes(store.getState())[0]!);
  if (startedInText) return; // the focused field received the whole chunk itself
  const chars = [...input];
  for (let i = 0; i < chars.length; i++) {
    runKey(store, chars[i] === ' ' ? 'space' : chars[i]!, effects);
    const s = store.getState();
    const scope = activeScopes(s)[0]!;
    if (TEXT_SCOPES.has(scope)) {
      const rest = chars.slice(i + 1).join('');
      if (rest && scope === 'search') s.setSearchDraft(s.searchDraft + rest);
      if (rest && scope === 'palette') s.setPaletteInput(s.paletteInput + rest);
      return;
    }
  }
}

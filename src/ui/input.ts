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

/** Control characters that can arrive inside a chunk, as key names. */
const CONTROL_KEYS: Record<string, string> = {
  '\r': 'enter',
  '\n': 'enter',
  '\t': 'tab',
  '\u007f': 'backspace',
  '\u0008': 'backspace',
};
const controlName = (ch: string): string | null => {
  const code = ch.codePointAt(0)!;
  if (CONTROL_KEYS[ch]) return CONTROL_KEYS[ch];
  if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
  return null;
};

/** Types printable text into the focused field (search or palette). */
function typeInto(store: AppStore, scope: string, text: string): void {
  const s = store.getState();
  if (scope === 'search') s.setSearchDraft(s.searchDraft + text);
  if (scope === 'palette') s.setPaletteInput(s.paletteInput + text);
}

/**
 * The app's one input handler. Keys typed fast (or over a slow SSH link) can arrive as one chunk:
 * each character is taken in turn — printable ones are typed into a field that an earlier key of the
 * chunk opened, control characters (Enter, Ctrl-C…) are keys — and nothing after an ESC is guessed at.
 */
export function handleInput(store: AppStore, input: string, key: InkKey, effects: UiEffects): void {
  const name = keyName(input, key);
  if (name !== null) {
    runKey(store, name, effects);
    return;
  }
  if (key.ctrl || input.length < 2) return;
  // A field focused before the chunk arrived received the printable text itself.
  const fieldHadIt = TEXT_SCOPES.has(activeScopes(store.getState())[0]!);
  let pending = '';
  const flush = (scope: string) => {
    if (pending && !fieldHadIt) typeInto(store, scope, pending);
    pending = '';
  };
  for (const ch of input) {
    if (ch === '\u001b') break;
    const scope = activeScopes(store.getState())[0]!;
    const control = controlName(ch);
    if (control === null && TEXT_SCOPES.has(scope)) {
      pending += ch;
      continue;
    }
    flush(scope);
    runKey(store, control ?? (ch === ' ' ? 'space' : ch), effects);
  }
  flush(activeScopes(store.getState())[0]!);
}

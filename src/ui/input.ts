import { FIELDS } from '../domain/line-form';
import { activeScopes, resolveKey, textTarget } from '../keys/dispatch';
import { type InkKey, keyName } from '../keys/key-name';
import { pastedLine } from '../keys/paste';
import type { AppStore } from '../store/app-store';
import { DISABLED, HANDLERS, type UiEffects } from './handlers';

/** Types text into whatever takes it now; `null` deletes the last character (store targets). */
function typeInto(store: AppStore, text: string | null): void {
  const s = store.getState();
  const edit = (v: string) => (text === null ? v.slice(0, -1) : v + text);
  const scope = activeScopes(s)[0];
  if (scope === 'search') s.setSearchDraft(edit(s.searchDraft));
  else if (scope === 'palette') s.setPaletteInput(edit(s.paletteInput));
  else if (scope === 'form' && s.form)
    s.setFormText(edit(String(s.form.values[s.form.focus as 'label'] ?? '')));
  else if (scope === 'picker' && s.picker) s.pickerSetFilter(edit(s.picker.filter));
  else if (scope === 'action' && s.action) s.setActionTyped(edit(s.action.typed));
  else if (scope === 'bulk' && s.bulk) s.bulkSetTyped(edit(s.bulk.typed));
  else if (scope === 'profileAdd' && s.profileForm)
    s.setProfileField(s.profileForm.focus, edit(s.profileForm[s.profileForm.focus]));
}

/**
 * Runs one key through the keymap: a disabled command explains itself in the flash line. Keys no
 * command takes are typed into a store target, and into a text field when `typeIntoField` (the app,
 * not the field, owns the chunk the key came in).
 */
function runKey(store: AppStore, name: string, effects: UiEffects, typeIntoField = false): void {
  const state = store.getState();
  const cmd = resolveKey(state, name);
  if (!cmd) {
    const target = textTarget(state);
    if (target === 'store' || (target === 'field' && typeIntoField)) {
      if (name === 'backspace' || name === 'delete') typeInto(store, null);
      else if (name === 'space' || [...name].length === 1) typeInto(store, name === 'space' ? ' ' : name);
    } else if (target === null && [...name].length === 1) {
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

const hasControl = (text: string) => [...text].some((ch) => controlName(ch) !== null);

/**
 * Wraps a text field's onChange. A focused field (ink-text-input) gets every chunk too, after the
 * app's handler: plain text is the field's to type, but a chunk with a control key in it ("abc⏎"
 * typed fast, or pasted) is the app's — it types the text before the key acts — so the field's
 * late copy is dropped.
 */
export function fieldChange(apply: (text: string) => void): (raw: string) => void {
  return (raw) => {
    if (!hasControl(raw)) apply(raw);
  };
}

/**
 * The app's one input handler. Keys typed fast (or over a slow SSH link) can arrive as one chunk:
 * each character is taken in turn — printable ones are typed into whatever takes text at that
 * moment, control characters (Enter, Ctrl-C…) are keys — and nothing after an ESC is guessed at.
 */
export function handleInput(store: AppStore, input: string, key: InkKey, effects: UiEffects): void {
  const name = keyName(input, key);
  if (name !== null) {
    runKey(store, name, effects);
    return;
  }
  if (key.ctrl || input.length < 2) return;
  // A text field focused when a chunk of plain text arrived types it itself (see fieldChange).
  const fieldHadIt = textTarget(store.getState()) === 'field' && !hasControl(input);
  let pending = '';
  const flush = () => {
    if (pending && !(fieldHadIt && textTarget(store.getState()) === 'field')) typeInto(store, pending);
    pending = '';
  };
  for (const ch of input) {
    if (ch === '\u001b') break;
    const control = controlName(ch);
    const state = store.getState();
    const cmd = control === null ? resolveKey(state, ch === ' ' ? 'space' : ch) : undefined;
    if (control === null && textTarget(state) !== null && !cmd) {
      pending += ch;
      continue;
    }
    flush();
    runKey(store, control ?? (ch === ' ' ? 'space' : ch), effects, !fieldHadIt);
  }
  flush();
}

/** Longest text a store target takes from a paste where the field itself sets no limit. */
const PASTE_FIELD_MAX = 200;

/**
 * A paste, delivered as text (keys/paste.ts took it out of the key stream): into the text target in
 * focus, first line only (every target is one line), control characters dropped, cut to the field's
 * maximum. With no text target it does nothing but say so: it never runs a command.
 */
export function handlePaste(store: AppStore, text: string): void {
  const s = store.getState();
  if (textTarget(s) === null) {
    s.notify('Paste ignored here: a paste is text, and nothing here takes text', 'info');
    return;
  }
  const field = activeScopes(s)[0] === 'form' ? FIELDS.find((f) => f.id === s.form?.focus) : undefined;
  const current =
    activeScopes(s)[0] === 'form' && s.form ? String(s.form.values[s.form.focus as 'label'] ?? '') : '';
  const { line: cut, cut: shortened } = pastedLine(
    text,
    (field?.maxLength ?? PASTE_FIELD_MAX) - [...current].length,
  );
  if (shortened) s.notify(`Pasted the first ${[...cut].length} characters of the first line`, 'info');
  if (cut) typeInto(store, cut);
}

import type { UiEffects } from '../commands/effects';
import { joined, keyNamed, said } from '../commands/keymap';
import { activeScopes, textTarget } from '../commands/text-takes';
import { FIELDS } from '../domain/line-form';
import { parsePasteList } from '../domain/paste-list';
import { NOTE_LIMITS } from '../services/notes';
import type { AppStore } from '../store/app-store';
import { caretOf, setTargetText, targetText } from '../store/text-target';
import { confirmHeld, confirmSurface, type KeyTurn, keyArrived, keyDone, typedAhead } from './confirm-gate';
import { resolveKey } from './dispatch';
import { type InkKey, keyName } from './key-name';
import { pastedLine, pastedLines } from './paste';
import { editText, insertText, isEditKey, type TextState } from './text-edit';

/** Edits the text target (store/text-target.ts) at its caret; the caret follows the edit. */
function editTarget(store: AppStore, change: (t: TextState) => TextState): void {
  const s = store.getState();
  const t = targetText(s);
  if (!t) return;
  const next = change({ value: t.value, caret: caretOf(s) });
  if (next.value !== t.value) setTargetText(s, next.value);
  // The owning slice may have cleaned the text: then the caret goes to its end.
  const now = targetText(store.getState())?.value ?? next.value;
  store.getState().setCaret({ key: t.key, value: now, at: now === next.value ? next.caret : now.length });
}

const typeInto = (store: AppStore, text: string) => editTarget(store, (t) => insertText(t, text));

/**
 * Runs one key through the keymap: a disabled command explains itself in the flash line. Keys no
 * command takes edit the text target when there is one. Every key passes the confirm gate
 * (keys/confirm-gate.ts) first: keys typed ahead of a confirm dialog are dropped, and a confirm
 * key counts only once the dialog could have been read.
 */
function runKey(store: AppStore, name: string, effects: UiEffects): void {
  const turn = keyArrived(store);
  if (typedAhead(store, turn, name)) return;
  const state = store.getState();
  const before = confirmSurface(state);
  dispatchKey(store, name, effects, turn);
  keyDone(store, turn, before);
}

function dispatchKey(store: AppStore, name: string, effects: UiEffects, turn: KeyTurn): void {
  const state = store.getState();
  const cmd = resolveKey(state, name);
  if (!cmd) {
    if (textTarget(state) !== null) {
      if (isEditKey(name)) editTarget(store, (t) => editText(t, name));
      else if (name === 'space' || [...name].length === 1) typeInto(store, name === 'space' ? ' ' : name);
    } else if ([...name].length === 1) {
      // The help key is offered only where it opens help (a dialog such as the column picker or
      // a command's output has no help of its own: there its footer lists the keys).
      state.notify(
        joined([`No command on "${name}" here`, said(keyNamed(state, 'app.help'), 'shows the keys')], '; '),
        'info',
      );
    }
    return;
  }
  const reason = cmd.disabled?.(state);
  if (reason) {
    state.notify(reason, 'info');
    return;
  }
  if (cmd.confirms && confirmHeld(store, turn)) return;
  cmd.run(state, effects);
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

/**
 * Whether an Alt key (Ink's `meta`) is one the app binds here: a command's, or a text field's
 * editing key (Alt-B, Alt-F, Alt-Backspace).
 */
function altBound(store: AppStore, input: string, key: InkKey): boolean {
  const name = keyName(input, key);
  if (!name?.startsWith('meta+')) return false;
  const s = store.getState();
  return resolveKey(s, name) !== undefined || (textTarget(s) === 'field' && isEditKey(name));
}

/**
 * The app's one input handler. Keys typed fast (or over a slow SSH link) can arrive as one chunk:
 * each character is taken in turn — printable ones are typed into whatever takes text at that
 * moment, control characters (Enter, Ctrl-C…) are keys — and nothing after an ESC is guessed at.
 * Ink reads Esc and the key after it in one read as Alt+key: an Alt key the app does not bind is
 * Esc, then the key (Esc and `:` typed fast close what Esc closes and open the palette).
 */
export function handleInput(store: AppStore, input: string, key: InkKey, effects: UiEffects): void {
  if (key.meta && !altBound(store, input, key)) {
    runKey(store, 'escape', effects);
    handleInput(store, input, { ...key, meta: false }, effects);
    return;
  }
  const name = keyName(input, key);
  if (name !== null) {
    runKey(store, name, effects);
    return;
  }
  if (key.ctrl || key.meta || input.length < 2) return;
  let pending = '';
  const flush = () => {
    if (pending) typeInto(store, pending);
    pending = '';
  };
  for (const ch of input) {
    if (ch === '\u001b') break;
    const control = controlName(ch);
    const state = store.getState();
    const cmd = control === null ? resolveKey(state, ch === ' ' ? 'space' : ch) : undefined;
    if (control === null && textTarget(state) !== null && !cmd) {
      // Typed text is keys to the confirm gate too: an Enter at the tail of typed text is a burst.
      keyArrived(store);
      pending += ch;
      continue;
    }
    flush();
    runKey(store, control ?? (ch === ' ' ? 'space' : ch), effects);
  }
  flush();
}

/** Longest text a store target takes from a paste where the field itself sets no limit. */
const PASTE_FIELD_MAX = 200;

/**
 * A paste, delivered as text (keys/paste.ts took it out of the key stream): into the text target in
 * focus, first line only (a note's text keeps its lines), control characters dropped, cut to the field's
 * maximum. With no text target it does nothing but say so: it never runs a command.
 */
export function handlePaste(store: AppStore, text: string): void {
  // A paste is input arriving, as typed text is: an Enter right behind it is part of the burst, held
  // by the confirm gate (a terminal that sends a paste's newline after its end marker).
  keyArrived(store);
  const s = store.getState();
  if (textTarget(s) === null) {
    // In the browser, a pasted list of usernames or ids marks those lines (it never runs a command).
    if (activeScopes(s)[0] === 'lines') {
      if (s.readOnly) s.notify('Paste ignored: read-only mode has no marks', 'info');
      else void s.markPasted(text);
      return;
    }
    s.notify('Paste ignored here: a paste is text, and nothing here takes text', 'info');
    return;
  }
  const scope = activeScopes(s)[0];
  const field = scope === 'form' ? FIELDS.find((f) => f.id === s.form?.focus) : undefined;
  const current = scope === 'form' || scope === 'note' ? (targetText(s)?.value ?? '') : '';
  // A note field takes one character over its limit, so its own message says what is too long.
  const max = scope === 'note' && s.noteForm ? NOTE_LIMITS[s.noteForm.focus] + 1 : field?.maxLength;
  const room = (max ?? PASTE_FIELD_MAX) - [...current].length;
  // A note's free text is the one field with lines: a pasted address or ticket keeps them.
  const multiline = scope === 'note' && s.noteForm?.focus === 'text';
  const { line: cut, cut: shortened } = multiline ? pastedLines(text, room) : pastedLine(text, room);
  // A ticket's list pasted into `/`: one name is searched; the browser is where a list marks lines.
  const names = scope === 'search' ? parsePasteList(text).items.length : 0;
  if (names > 1) {
    const there = said(keyNamed(s, 'search.clear'), (k) => `press ${k} and paste in the browser`);
    s.notify(
      `First of ${names} pasted names searched; to mark all ${names}, ${there ?? 'paste them in the browser'}`,
      'info',
    );
  } else if (shortened)
    s.notify(
      `Pasted the first ${[...cut].length} characters${multiline ? '' : ' of the first line'}`,
      'info',
    );
  if (cut) typeInto(store, cut);
}

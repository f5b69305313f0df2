/**
 * One-line text editing as a shell does it (readline's keys), on a value and a caret. Pure. The
 * caret is a UTF-16 offset that always sits between two graphemes: Backspace after an emoji or a
 * letter with its accent removes all of it, never half.
 */
import { boundaries, clampCaret } from '../domain/graphemes';

export { clampCaret };

export interface TextState {
  readonly value: string;
  readonly caret: number;
}

import { EDIT_KEYS } from '../commands/edit-keys';

export { EDIT_KEYS };

type EditKey = (typeof EDIT_KEYS)[number];

const EDIT = new Set<string>(EDIT_KEYS);
export const isEditKey = (key: string): key is EditKey => EDIT.has(key);

const prevBoundary = (text: string, at: number) => boundaries(text).findLast((b) => b < at) ?? 0;
const nextBoundary = (text: string, at: number) => boundaries(text).find((b) => b > at) ?? text.length;

/** Start of the word before the caret (spaces first, then the word), as readline's Ctrl-W and Alt-B. */
function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && text[i - 1] === ' ') i--;
  while (i > 0 && text[i - 1] !== ' ') i--;
  return i;
}
function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && text[i] === ' ') i++;
  while (i < text.length && text[i] !== ' ') i++;
  return i;
}

export function insertText(s: TextState, text: string): TextState {
  const at = clampCaret(s.value, s.caret);
  return { value: s.value.slice(0, at) + text + s.value.slice(at), caret: at + text.length };
}

/** Applies an editing key (a caret from outside is snapped to a boundary first). */
export function editText(s: TextState, key: EditKey): TextState {
  const { value } = s;
  const at = clampCaret(value, s.caret);
  const cut = (from: number, to: number): TextState => ({
    value: value.slice(0, from) + value.slice(to),
    caret: from,
  });
  switch (key) {
    case 'left':
    case 'ctrl+b':
      return { value, caret: prevBoundary(value, at) };
    case 'right':
    case 'ctrl+f':
      return { value, caret: nextBoundary(value, at) };
    case 'home':
    case 'ctrl+a':
      return { value, caret: 0 };
    case 'end':
    case 'ctrl+e':
      return { value, caret: value.length };
    case 'meta+b':
      return { value, caret: wordStart(value, at) };
    case 'meta+f':
      return { value, caret: wordEnd(value, at) };
    case 'backspace':
    case 'ctrl+h':
      return at === 0 ? { value, caret: 0 } : cut(prevBoundary(value, at), at);
    case 'delete':
    case 'ctrl+d':
      return at === value.length ? { value, caret: at } : cut(at, nextBoundary(value, at));
    case 'ctrl+u':
      return cut(0, at);
    case 'ctrl+k':
      return cut(at, value.length);
    case 'ctrl+w':
    case 'meta+backspace':
      return cut(wordStart(value, at), at);
  }
}

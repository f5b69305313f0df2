/**
 * The keys that edit a text field (key names of keys/key-name.ts), listed in help as the text
 * fields' keys. Here, below keys/, so the remap rules (commands/user-keys.ts) read the same list the
 * field editor (keys/text-edit.ts) acts on.
 */
export const EDIT_KEYS = [
  'left',
  'right',
  'home',
  'end',
  'ctrl+a',
  'ctrl+e',
  'ctrl+b',
  'ctrl+f',
  'backspace',
  'ctrl+h',
  'delete',
  'ctrl+d',
  'ctrl+u',
  'ctrl+k',
  'ctrl+w',
  'meta+b',
  'meta+f',
  'meta+backspace',
] as const;

import { useShallow } from 'zustand/react/shallow';
import { type CommandId, keyNamed } from '../commands/keymap';
import { useApp } from './store-context';

/**
 * The keys a dialog's own text names, each by `keyNamed`'s rule: null while it would refuse, or
 * works in none of the scopes active now (the help overlay over the dialog, the palette): the text
 * then leaves the key out (`said`, commands/hints.ts). Re-renders when one of them changes.
 */
export function useKeysNamed<const T extends readonly CommandId[]>(ids: T): Record<T[number], string | null> {
  return useApp(
    useShallow(
      (s) => Object.fromEntries(ids.map((id) => [id, keyNamed(s, id)])) as Record<T[number], string | null>,
    ),
  );
}

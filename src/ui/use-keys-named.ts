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

/** Parts of a hint line that are said, joined. */
export const joined = (parts: readonly (string | null)[], by = ' · '): string =>
  parts.filter(Boolean).join(by);

/** A said part in brackets after the text (" (r retries)"), or nothing while it is not said (null). */
export const wrapped = (part: string | null, before = ' '): string => (part ? `${before}(${part})` : '');

import type { UiEffects } from '../commands/effects';
import { type Command, type CommandId, keyLabel, lookup, visibleCommands } from '../commands/keymap';
import type { AppStore } from '../store/app-store';
import { type InkKey, keyName } from './key-name';

/**
 * While the terminal is too small for the layout (present/min-size.ts) nothing of a screen is
 * shown, so no screen's key may act: a key is looked up in the `small` scope alone.
 */
export const resolveSmallKey = (name: string): Command<CommandId> | undefined => lookup('small', name);

/** The keys that work while too small, as the sentence names them ("q", "Ctrl-C"). */
export const smallKeyLabels = (): string[] =>
  visibleCommands('small').flatMap((c) => c.keys.map((k) => keyLabel(k)));

/** The input handler while too small: the `small` scope's commands, every other key ignored. */
export function handleSmallInput(store: AppStore, input: string, key: InkKey, effects: UiEffects): void {
  const name = keyName(input, key);
  const cmd = name === null ? undefined : resolveSmallKey(name);
  if (cmd && !cmd.disabled?.(store.getState())) cmd.run(store.getState(), effects);
}

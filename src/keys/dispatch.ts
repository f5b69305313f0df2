import { type Command, type CommandId, lookup } from '../commands/keymap';
import { activeScopes, QUITS_ANYWHERE, type TextState, textTakes } from '../commands/text-takes';

/**
 * Ink broadcasts every key to every useInput handler and none can consume it, so the app has one
 * root handler that resolves a key here, from the view stack: a view's id is its commands' scope.
 * The dialog on top takes keys alone; the browser's open search field alone; a screen on top, then
 * global keys (`activeScopes`). First match wins, unless the text typed now takes the key
 * (`textTakes`: the one rule, commands/text-takes.ts, which the footer and the key hints read too).
 */
export function resolveKey(s: TextState, key: string): Command<CommandId> | undefined {
  // Ctrl-C quits from anywhere (the footer and the key hints say so too: text-takes.ts `keyThatWorks`).
  if (key === QUITS_ANYWHERE) return lookup('global', key);
  for (const scope of activeScopes(s)) {
    const cmd = lookup(scope, key);
    if (cmd && !textTakes(s, key, cmd)) return cmd;
  }
  return undefined;
}

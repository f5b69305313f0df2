/**
 * The one table of commands: each carries its keys, scopes, label, group, what it does (`run`) and
 * why it cannot run now (`disabled`), defined by area in commands/. It drives input handling
 * (input.ts), the footer, the `?` help overlay and the README's key table (keys-doc.ts, checked by a
 * test). Rebinding a key here rebinds it everywhere, tests included (they press keys by command id).
 */

import type { AppState } from '../store/app-store';
import { isDialog, selectScreen } from '../store/view-stack';
import type { Command, Scope } from './command';
import { APP_COMMANDS } from './commands/app';
import { BULK_COMMANDS } from './commands/bulk';
import { FIND_COMMANDS } from './commands/find';
import { FORM_COMMANDS } from './commands/form';
import { LINE_COMMANDS } from './commands/line';
import { LINES_COMMANDS } from './commands/lines';
import { MESSAGE_COMMANDS } from './commands/messages';
import { NOTES_COMMANDS } from './commands/notes';
import { RENEWALS_COMMANDS } from './commands/renewals';

export type { Command, Group, Scope } from './command';

// Order matters within a scope only: it is help's and the README's order, and an earlier command
// takes a key a later one of the same scope also names.
export const COMMANDS = [
  ...APP_COMMANDS,
  ...LINE_COMMANDS,
  ...LINES_COMMANDS,
  ...RENEWALS_COMMANDS,
  ...FIND_COMMANDS,
  ...BULK_COMMANDS,
  ...FORM_COMMANDS,
  ...MESSAGE_COMMANDS,
  ...NOTES_COMMANDS,
] as const;

/** The id of a command in the table: a typo is a type error, in handlers and hints alike. */
export type CommandId = (typeof COMMANDS)[number]['id'];

const byId = new Map<string, Command>(COMMANDS.map((cmd) => [cmd.id, cmd]));

export function command(id: CommandId): Command<CommandId> {
  const cmd = byId.get(id);
  if (!cmd) throw new Error(`no command ${id}`);
  return cmd as Command<CommandId>;
}

export const inScope = (cmd: Command, scope: Scope) => cmd.scopes.includes(scope);

export const commandsIn = (scope: Scope): Command<CommandId>[] =>
  (COMMANDS as readonly Command<CommandId>[]).filter((cmd) => inScope(cmd, scope));

/** The command bound to `key` in `scope`, if any. */
export function lookup(scope: Scope, key: string): Command<CommandId> | undefined {
  return (COMMANDS as readonly Command<CommandId>[]).find(
    (cmd) => inScope(cmd, scope) && cmd.keys.includes(key),
  );
}

const KEY_LABELS: Record<string, string> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
  enter: 'Enter',
  escape: 'Esc',
  space: 'Space',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
};

/** "Ctrl-C", "PgDn", "?" — how a key is written on screen and in the README. */
export function keyLabel(key: string): string {
  if (key.startsWith('ctrl+')) return `Ctrl-${key.slice(5).toUpperCase()}`;
  if (key === 'shift+tab') return 'Shift-Tab';
  return KEY_LABELS[key] ?? key;
}

/** How a command's first key is written in text ("A", "Ctrl-G"): hints name keys from the table. */
export const keyHintText = (id: CommandId): string => keyLabel(command(id).keys[0]!);

/** The scopes help shows now: the dialogs it was opened over (a form) first, then the screen's. */
export function helpScopesOf(s: Pick<AppState, 'views'>): Scope[] {
  const under = s.views.filter((v) => isDialog(v) && v.id !== 'help').map((v): Scope => v.id);
  return [...new Set([...under.reverse(), ...helpScopes(selectScreen(s).id)])];
}

/** The scopes help shows on a screen: the screen's own, the menus opened from it, then global. */
export function helpScopes(screen: Scope): Scope[] {
  const menus: Partial<Record<Scope, Scope[]>> = {
    lines: ['search', 'marks', 'copy', 'message'],
    detail: ['copy', 'message'],
    renewals: ['copy', 'message'],
    marks: ['message'],
  };
  return [screen, ...(menus[screen] ?? []), 'global'];
}

/**
 * The commands that work in `scope` as seen from there: a command whose every key an earlier
 * command of the same scope takes is never reached, so it is not shown.
 */
export function visibleCommands(scope: Scope): Command<CommandId>[] {
  const taken = new Set<string>();
  return commandsIn(scope).filter((c) => {
    const reachable = c.keys.some((k) => !taken.has(k));
    for (const k of c.keys) taken.add(k);
    return reachable;
  });
}

/** "Enter confirms": a command's key and what it does, for hints written in sentences. */
export const hint = (id: CommandId, does: string): string => `${keyHintText(id)} ${does}`;

/**
 * A key named in text, only while its command runs now: null when its `disabled` gives a reason
 * (read-only mode, nothing marked, a trial line), so no sentence offers a key that would refuse.
 */
export const keyHint = (s: AppState, id: CommandId, does: string): string | null =>
  command(id).disabled?.(s) ? null : hint(id, does);

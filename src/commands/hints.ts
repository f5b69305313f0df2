/**
 * Looking commands up: by id, by key in a scope, per scope as help and the footer list them, and a
 * command's key as text names it. The table (keymap.ts) is built from the area files (areas/) and
 * hands itself here once, as it is made; the area files import this module, never the table, so
 * imports point one way (areas → hints, keymap → areas + hints). The table's typed wrappers
 * (keymap.ts) check ids at compile time; here an id is a string, checked when the table is
 * complete (test/keys/keymap.test.ts reads every id the area files name).
 */
import type { AppState } from '../store/app-store';
import { dialogsUnderHelp } from '../store/drawn-for';
import { selectScreen } from '../store/view-stack';
import type { Command, Scope } from './command';
import { keyThatWorks } from './text-takes';

let table: readonly Command[] = [];
let byId = new Map<string, Command>();

/** The table, once, as keymap.ts builds it. */
export function registerCommands(commands: readonly Command[]): void {
  table = commands;
  byId = new Map(commands.map((cmd) => [cmd.id, cmd]));
}

/** The command of this id in the table now, if any (a command of yours is there only once applied). */
export const findCommand = (id: string): Command | undefined => byId.get(id);

export function commandById(id: string): Command {
  const cmd = byId.get(id);
  if (!cmd) throw new Error(`no command ${id}`);
  return cmd;
}

const inScope = (cmd: Command, scope: Scope) => cmd.scopes.includes(scope);

export const commandsIn = (scope: Scope): Command[] => table.filter((cmd) => inScope(cmd, scope));

/** The command bound to `key` in `scope`, if any. */
export const lookup = (scope: Scope, key: string): Command | undefined =>
  table.find((cmd) => inScope(cmd, scope) && cmd.keys.includes(key));

/**
 * The commands that work in `scope` as seen from there: a command whose every key an earlier
 * command of the same scope takes is never reached, so it is not shown.
 */
export function visibleCommands(scope: Scope): Command[] {
  const taken = new Set<string>();
  return commandsIn(scope).filter((c) => {
    const reachable = c.keys.some((k) => !taken.has(k));
    for (const k of c.keys) taken.add(k);
    return reachable;
  });
}

/** The scopes help shows on a screen: the screen's own, the menus opened from it, then global. */
export function helpScopes(screen: Scope): Scope[] {
  const menus: Partial<Record<Scope, Scope[]>> = {
    lines: ['search', 'columns', 'marks', 'copy', 'message'],
    detail: ['copy', 'message'],
    renewals: ['copy', 'message'],
    marks: ['message'],
  };
  return [screen, ...(menus[screen] ?? []), 'global'];
}

/** The scopes help shows now: the dialog it was opened over (a form) first, then the screen's. */
export function helpScopesOf(s: Pick<AppState, 'views'>): Scope[] {
  return [...new Set<Scope>([...dialogsUnderHelp(s), ...helpScopes(selectScreen(s).id)])];
}

/**
 * Commands with no key that work in these scopes: only commands of yours (the config's `commands`)
 * whose key was left out or never given; `:run NAME` runs them, and help lists them so.
 */
export const keylessCommands = (scopes: readonly Scope[]): Command[] =>
  table.filter((c) => !c.keys.length && c.scopes.some((sc) => scopes.includes(sc)));

/**
 * What help lists for these scopes, in order: each scope with the commands that work there, then (as
 * `null`) yours with no key, when there are any. Help draws a heading and a row per command of each.
 */
export const helpSections = (
  scopes: readonly Scope[],
): { readonly scope: Scope | null; readonly commands: readonly Command[] }[] => {
  const keyless = keylessCommands(scopes);
  return [
    ...scopes.map((scope) => ({ scope, commands: visibleCommands(scope) })),
    ...(keyless.length ? [{ scope: null, commands: keyless }] : []),
  ];
};

/** The rows help lists now (a heading per section, a row per command): how far it scrolls. */
export const helpRows = (s: Pick<AppState, 'views'>): number =>
  helpSections(helpScopesOf(s)).reduce((n, section) => n + 1 + section.commands.length, 0);

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

/** The arrows in words, for the screen-reader mode (a screen reader says "↑" as nothing useful). */
const SPOKEN_LABELS: Record<string, string> = { up: 'Up', down: 'Down', left: 'Left', right: 'Right' };
let spokenKeys = false;
/** The screen-reader mode names the arrow keys in words on screen (set once at start). */
export const setSpokenKeys = (on: boolean) => {
  spokenKeys = on;
};

/** "Ctrl-C", "PgDn", "?" — how a key is written on screen and in the docs. */
export function keyLabel(key: string): string {
  if (key.startsWith('ctrl+')) return `Ctrl-${key.slice(5).toUpperCase()}`;
  if (key === 'shift+tab') return 'Shift-Tab';
  return (spokenKeys ? SPOKEN_LABELS[key] : undefined) ?? KEY_LABELS[key] ?? key;
}

/**
 * A command's first key as bound, wherever and whenever it works ("A", "Ctrl-G"): for the docs and
 * for listings that say where a key works (as help does); never for a screen's or a flash's sentence
 * (`keyNamed`).
 */
export const keyHintText = (id: string): string => keyLabel(commandById(id).keys[0]!);

/**
 * A key named in text, only while it runs its command here and now: null when its `disabled` gives a
 * reason (read-only mode, nothing marked, a trial line), when its command works in none of the scopes
 * active now (a sentence of the screen under the palette), or when the text typed now would take
 * every key of it (text-takes.ts, the rule dispatch and the footer follow); else the key the footer
 * would name ("Esc", "Ctrl-G"), as written on screen, so no sentence offers a key that would refuse
 * or be typed. Screens, dialogs and flash messages name a key only through this (with `said`), never
 * `keyHintText` (which looks at no state): the sentence then drops the key, or says the same without it.
 */
export const keyNamed = (s: AppState, id: string): string | null => {
  const cmd = commandById(id);
  const key = cmd.disabled?.(s) ? undefined : keyThatWorks(s, cmd);
  return key === undefined ? null : keyLabel(key);
};

/**
 * The one way text says a key and what it does: "Esc back", or a sentence around the key
 * (`(k) => \`Press ${k} again to quit\``); null when `key` is null (no key works for it now:
 * `keyNamed`), so the text leaves it out or says the same without it.
 */
export function said(key: string | null, does: string | ((key: string) => string)): string | null {
  if (key === null) return null;
  return typeof does === 'string' ? `${key} ${does}` : does(key);
}

/** Parts of a hint line that are said (`said`: null when not), joined. */
export const joined = (parts: readonly (string | null)[], by = ' · '): string =>
  parts.filter(Boolean).join(by);

/** A said part in brackets after the text (" (r retries)"), or nothing while it is not said (null). */
export const wrapped = (part: string | null, before = ' '): string => (part ? `${before}(${part})` : '');

/**
 * Your keys and your own commands (the config's `keys` and `commands`, docs/CONFIG.md): applied to
 * the one command table at start, so dispatch, the footer, `?` help and the palette all follow. A
 * remap replaces a command's keys; a key that clashes (the same key on another command where both
 * work at once), an unknown command or a key linedesk cannot read is named and that entry skipped:
 * the command keeps its own keys (or, for a command of yours, is left without a key: `:run NAME`
 * still runs it). Nothing here is fatal. docs/KEYS.md stays the defaults (`npm run docs` applies none).
 */

import { sanitize } from '../api/sanitize';
import {
  parseKeyEntries,
  parseUserCommands,
  USER_PREFIX,
  type UserCommand,
  userCommandId,
} from '../domain/user-commands';
import type { AppState } from '../store/app-store';
import { selectTargetLine } from '../store/selectors';
import { SCREEN_IDS } from '../store/types';
import { type Command, c, needsLine, type Scope } from './command';
import { EDIT_KEYS } from './edit-keys';
import { keyLabel, registerCommands } from './hints';
import { COMMANDS } from './keymap';
import { FIELD_SCOPES, isPrintable, TEXT_SCOPES } from './text-takes';

/** The screens (the store's ids; each is a scope): their keys work together with the global ones (text-takes.ts `activeScopes`). */
const SCREENS: readonly Scope[] = SCREEN_IDS;
/** The welcome's scopes: shown only while there is no config, so no `keys` entry ever reaches them. */
const BEFORE_CONFIG: readonly Scope[] = ['welcome', 'connect'];
const NAMED = [
  'up',
  'down',
  'left',
  'right',
  'pageup',
  'pagedown',
  'home',
  'end',
  'enter',
  'escape',
  'space',
  'tab',
  'shift+tab',
  'backspace',
  'delete',
];
/** Spellings help and the docs show, read back: "Esc", "PgDn", "Ctrl-G", "Shift-Tab". */
const ALIASES: Record<string, string> = { esc: 'escape', return: 'enter', pgup: 'pageup', pgdn: 'pagedown' };

/** A key as the keymap spells it, or why it cannot be one. */
export function keyOf(text: string): { readonly key: string } | { readonly problem: string } {
  const lower = text.toLowerCase().replace(/^(ctrl|shift)-/, '$1+');
  // Before a character: help writes the arrows as one (`↑`), and that is the arrow key.
  const named = ALIASES[lower] ?? NAMED.find((n) => n === lower || keyLabel(n).toLowerCase() === lower);
  if (named) return { key: named };
  if ([...text].length === 1) {
    if (/[\p{C}\s]/u.test(text)) return { problem: `${JSON.stringify(text)} is not a key linedesk can read` };
    return { key: text };
  }
  const ctrl = /^ctrl\+([a-z])$/.exec(lower);
  if (ctrl) {
    if (ctrl[1] === 'c') return { problem: 'Ctrl-C always quits; it cannot be given to another command' };
    // A terminal sends these as Tab, Enter and Backspace: a command on them would never run.
    const same: Record<string, string> = { i: 'Tab', m: 'Enter', j: 'Enter', h: 'Backspace' };
    if (same[ctrl[1]!])
      return { problem: `${keyLabel(lower)} is the same key as ${same[ctrl[1]!]} in a terminal` };
    return { key: lower };
  }
  return {
    problem: `${JSON.stringify(text)} is not a key name (a character, Enter, Esc, Tab, PgDn, Ctrl-G, …)`,
  };
}

/** Two scopes whose keys work at the same moment: the same one, or a screen and the global keys. */
const together = (a: Scope, b: Scope) =>
  a === b || (a === 'global' && SCREENS.includes(b)) || (b === 'global' && SCREENS.includes(a));

/** A command of yours in the table: its key in its scope, its run is the store's. */
function userCommand(u: UserCommand, keys: readonly string[]): Command {
  const scopes: Scope[] = u.scope === 'line' ? ['lines', 'detail'] : ['marks'];
  const disabled =
    u.scope === 'line'
      ? needsLine(selectTargetLine)
      : (s: AppState) => (s.marked.size ? null : 'No lines marked');
  return c(userCommandId(u.name), keys, scopes, 'Line', u.label, (s) => s.runUserCommand(u.name), {
    disabled,
  });
}

interface UserKeys {
  /** The commands of yours that were read (a key left out keeps the command, for `:run`). */
  readonly commands: readonly UserCommand[];
  /** One sentence per entry left out or key dropped, naming it. */
  readonly problems: readonly string[];
}

/**
 * Applies the config's `keys` and `commands` to the table (replacing any earlier application; with
 * neither, the defaults). `where` prefixes each problem (the app says `config`; the log adds the path).
 */
export function applyUserKeys(
  raw: { readonly keys?: unknown; readonly commands?: unknown },
  where = '',
): UserKeys {
  const at = where ? `${where}: ` : '';
  const parsedKeys = parseKeyEntries(raw.keys, at);
  const parsedCommands = parseUserCommands(raw.commands, at);
  const problems = [...parsedKeys.problems, ...parsedCommands.problems];
  const defaults = new Map<string, Command>(COMMANDS.map((cmd) => [cmd.id, cmd]));

  // The entries the user gave, in the config's order: a remap, or a command of theirs with its key.
  interface Entry {
    readonly id: string;
    readonly keys: readonly string[];
    readonly what: string;
  }
  const entries: Entry[] = [];
  for (const [id, texts] of parsedKeys.keys) {
    const cmd = defaults.get(id);
    if (!cmd) {
      problems.push(`${at}keys.${id}: no command of that id (docs/KEYS.md lists every id); left out`);
      continue;
    }
    if (cmd.scopes.every((sc) => BEFORE_CONFIG.includes(sc))) {
      problems.push(
        `${at}keys.${id}: the welcome screen comes before any config, its keys are fixed; left out`,
      );
      continue;
    }
    const read = texts.map(keyOf);
    const bad = read.find((r) => 'problem' in r);
    if (bad && 'problem' in bad) {
      problems.push(`${at}keys.${id}: ${bad.problem}; ${id} keeps ${cmd.keys.map(keyLabel).join(' ')}`);
      continue;
    }
    // Ctrl-C always quits (keys/dispatch.ts looks it up first): a remap of a quit command adds keys to it.
    const keys = [
      ...new Set([...read.map((r) => ('key' in r ? r.key : '')), ...cmd.keys.filter((k) => k === 'ctrl+c')]),
    ];
    // Where text is typed, a printable key types (text-takes.ts): a command whose own keys are not
    // typed (Esc, Enter, Tab in a field) gets none, or help would list a key that types instead.
    const textScope = cmd.scopes.find((s) => TEXT_SCOPES.includes(s));
    const printable = keys.filter(isPrintable);
    if (textScope && !cmd.overText && printable.length && !cmd.keys.some(isPrintable)) {
      problems.push(
        `${at}keys.${id}: ${printable.map(keyLabel).join(' ')} would be typed as text in ${textScope}; ${id} keeps ${cmd.keys.map(keyLabel).join(' ')}`,
      );
      continue;
    }
    const fieldScope = cmd.scopes.find((s) => FIELD_SCOPES.includes(s));
    // A command's own editing key stays (the form's ← chooses on a choice field, moves the caret in text).
    const edits = keys.filter((k) => (EDIT_KEYS as readonly string[]).includes(k) && !cmd.keys.includes(k));
    if (fieldScope && edits.length) {
      problems.push(
        `${at}keys.${id}: ${edits.map(keyLabel).join(' ')} edits the text in ${fieldScope}; ${id} keeps ${cmd.keys.map(keyLabel).join(' ')}`,
      );
      continue;
    }
    entries.push({ id, keys, what: `keys.${id}` });
  }
  const user = new Map<string, Command>();
  for (const u of parsedCommands.commands) {
    const id = userCommandId(u.name);
    user.set(id, userCommand(u, []));
    if (u.key === null) continue;
    const read = keyOf(u.key);
    if ('problem' in read)
      problems.push(`${at}commands ${u.name}: key: ${read.problem}; no key (:run ${u.name} runs it)`);
    else entries.push({ id, keys: [read.key], what: `commands ${u.name}` });
  }

  // Clashes are judged on the table as it would be, so two commands can swap their keys; an entry
  // that clashes with a default or an earlier entry is dropped, and the table judged again.
  let kept = entries;
  for (;;) {
    const keysOf = new Map(kept.map((e) => [e.id, e.keys]));
    const table = [...COMMANDS, ...user.values()].map((cmd) => ({
      cmd,
      keys: keysOf.get(cmd.id) ?? cmd.keys,
    }));
    let dropped: string | null = null;
    for (const [i, e] of kept.entries()) {
      const mine = table.find((t) => t.cmd.id === e.id)!;
      const later = new Set(kept.slice(i + 1).map((x) => x.id));
      for (const other of table) {
        if (other.cmd.id === e.id || later.has(other.cmd.id)) continue;
        const key = e.keys.find((k) => other.keys.includes(k));
        const scope = key && mine.cmd.scopes.find((a) => other.cmd.scopes.some((b) => together(a, b)));
        if (!key || !scope) continue;
        const keeps = e.id.startsWith(USER_PREFIX)
          ? `no key (:run ${e.id.slice(USER_PREFIX.length)} runs it)`
          : `${e.id} keeps ${defaults.get(e.id)!.keys.map(keyLabel).join(' ')}`;
        dropped = e.id;
        problems.push(`${at}${e.what}: ${keyLabel(key)} is ${other.cmd.id}'s key in ${scope}; ${keeps}`);
        break;
      }
      if (dropped) break;
    }
    if (!dropped) break;
    kept = kept.filter((e) => e.id !== dropped);
  }

  const keysOf = new Map(kept.map((e) => [e.id, e.keys]));
  const withKeys = (cmd: Command): Command => {
    const keys = keysOf.get(cmd.id);
    return keys ? { ...cmd, keys } : cmd;
  };
  registerCommands([...COMMANDS.map(withKeys), ...[...user.values()].map(withKeys)]);
  // A config's text (an id it names) could hold a control character: said, it must not act on the terminal.
  return { commands: parsedCommands.commands, problems: problems.map(sanitize) };
}

/** Back to the default table (tests; a start with no keys or commands in its config). */
export const resetUserKeys = (): void => registerCommands(COMMANDS);

/** What the flash says at start when entries were left out: the first, and where to see them all. */
export function userKeysNotice(problems: readonly string[]): string[] {
  if (!problems.length) return [];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return [`${problems[0]}${more}; :run shows the list`];
}

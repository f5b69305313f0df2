/**
 * The one table of commands. It drives input handling (dispatch.ts), the footer, the `?` help overlay
 * and the README's key table (scripts/keys-doc.mjs, checked by a test). Rebinding a key here rebinds
 * it everywhere, tests included (they press keys by command id).
 */

export type Scope =
  | 'global'
  | 'lines'
  | 'detail'
  | 'account'
  | 'packages'
  | 'bouquets'
  | 'search'
  | 'palette'
  | 'help'
  | 'copy'
  | 'journal'
  | 'form'
  | 'picker'
  | 'action'
  | 'marks'
  | 'bulk'
  | 'resume'
  | 'profiles'
  | 'profileAdd';

export type Group = 'App' | 'Navigate' | 'Find' | 'Marks' | 'Line' | 'Copy' | 'Input';

export interface Command<I extends string = string> {
  readonly id: I;
  /** Key names: single characters ('j', 'G', '?'), or 'up' 'down' 'left' 'right' 'pageup' 'pagedown'
   *  'home' 'end' 'enter' 'escape' 'space' 'tab' 'backspace' 'delete', or 'ctrl+x'. */
  readonly keys: readonly string[];
  /** Where the binding works: dispatch, footer, help and the README all read this one list (the
   *  first is where the README lists it). */
  readonly scopes: readonly Scope[];
  readonly label: string;
  readonly group: Group;
  /** Shown in the footer of its scope (the footer is short; help shows everything). */
  readonly footer?: boolean;
  /** Changes or removes data; help marks it. */
  readonly danger?: boolean;
  /** A printable key that stays a command while text is being typed (the picker's Space). */
  readonly overText?: boolean;
}

const c = <const I extends string>(
  id: I,
  keys: readonly string[],
  scopes: Scope | readonly Scope[],
  group: Group,
  label: string,
  extra: Partial<Omit<Command, 'id' | 'scopes'>> = {},
): Command<I> => ({
  id,
  keys,
  scopes: typeof scopes === 'string' ? [scopes] : scopes,
  group,
  label,
  ...extra,
});

export const COMMANDS = [
  // Everywhere
  c('app.help', ['?'], ['global', 'detail'], 'App', 'Help', { footer: true }),
  c('app.palette', [':'], 'global', 'App', 'Command palette', { footer: true }),
  c('app.back', ['escape'], 'global', 'App', 'Close or back'),
  c('app.backOrQuit', ['q'], 'global', 'App', 'Back (quit from the first screen)', { footer: true }),
  c('app.quit', ['ctrl+c'], 'global', 'App', 'Quit'),
  c('app.refresh', ['r'], 'global', 'App', 'Refresh (or retry after an error)', { footer: true }),
  c('nav.account', ['1'], 'global', 'Navigate', 'Account summary'),
  c('nav.lines', ['2'], 'global', 'Navigate', 'Lines'),
  c('nav.packages', ['3'], 'global', 'Navigate', 'Packages'),
  c('nav.bouquets', ['4'], 'global', 'Navigate', 'Bouquets'),
  c('nav.journal', ['5'], 'global', 'Navigate', 'Journal of changes'),

  // Changes to a line: in the browser (the line under the cursor, or the marked lines when any), in
  // the line detail (its line), and in the marks view (the marked lines)
  c('line.create', ['c'], ['lines', 'detail'], 'Line', 'New line (costs credits; confirmed first)', {
    danger: true,
    footer: true,
  }),
  c('line.trial', ['C'], ['lines', 'detail'], 'Line', 'New trial line', { danger: true }),
  c('line.extend', ['e'], ['lines', 'detail', 'marks'], 'Line', 'Extend (costs credits; confirmed first)', {
    danger: true,
    footer: true,
  }),
  c('line.upgrade', ['u'], ['lines', 'detail', 'marks'], 'Line', 'Change connections (confirmed first)', {
    danger: true,
    footer: true,
  }),
  c('line.unsuspend', ['s'], ['lines', 'detail', 'marks'], 'Line', 'Unsuspend', {
    danger: true,
    footer: true,
  }),
  c(
    'line.delete',
    ['d', 'delete'],
    ['lines', 'detail', 'marks'],
    'Line',
    'Delete (type the username to confirm)',
    {
      danger: true,
      footer: true,
    },
  ),

  // Lines browser
  c('lines.down', ['down', 'j'], 'lines', 'Navigate', 'Next line'),
  c('lines.up', ['up', 'k'], 'lines', 'Navigate', 'Previous line'),
  c('lines.pageNext', ['pagedown', ']'], 'lines', 'Navigate', 'Next page', { footer: true }),
  c('lines.pagePrev', ['pageup', '['], 'lines', 'Navigate', 'Previous page', { footer: true }),
  c('lines.first', ['g', 'home'], 'lines', 'Navigate', 'First line'),
  c('lines.last', ['G', 'end'], 'lines', 'Navigate', 'Last line'),
  c('lines.open', ['enter'], 'lines', 'Navigate', 'Open the line', { footer: true }),
  c('lines.search', ['/'], 'lines', 'Find', 'Search username or id', { footer: true }),
  c('lines.filterStatus', ['f'], 'lines', 'Find', 'Status filter: all, active, suspended, expiring', {
    footer: true,
  }),
  c('lines.filterType', ['t'], 'lines', 'Find', 'Type filter: all, premium, trial'),
  c('lines.sortColumn', ['o'], 'lines', 'Find', 'Sort by: id, username, enabled, expiry', { footer: true }),
  c('lines.sortOrder', ['O'], 'lines', 'Find', 'Flip the sort order'),
  c('lines.mark', ['space'], 'lines', 'Marks', 'Mark or unmark the line', { footer: true }),
  c('lines.markPage', ['a'], 'lines', 'Marks', 'Mark or unmark the page'),
  c('lines.markAll', ['A'], 'lines', 'Marks', 'Mark every line matching the filter (again: stop)'),
  c('lines.marks', ['M'], 'lines', 'Marks', 'Show the marked lines'),

  // Marks view
  c('marks.down', ['down', 'j'], 'marks', 'Marks', 'Next marked line'),
  c('marks.up', ['up', 'k'], 'marks', 'Marks', 'Previous marked line'),
  c('marks.unmark', ['space'], 'marks', 'Marks', 'Unmark the line', { footer: true }),
  c('marks.clear', ['U'], 'marks', 'Marks', 'Unmark every line', { footer: true }),

  // Line detail
  c('detail.password', ['p'], 'detail', 'Line', 'Show or hide the password', { footer: true }),
  c('detail.copy', ['y'], 'detail', 'Copy', 'Copy… (credentials, username, password, id, portal URL)', {
    footer: true,
  }),

  // Copy menu (OSC 52 over SSH; tmux's buffer inside tmux)
  c('copy.credentials', ['c'], 'copy', 'Copy', 'Copy username and password', { footer: true }),
  c('copy.username', ['u'], 'copy', 'Copy', 'Copy the username', { footer: true }),
  c('copy.password', ['p'], 'copy', 'Copy', 'Copy the password', { footer: true }),
  c('copy.id', ['i'], 'copy', 'Copy', "Copy the line's id", { footer: true }),
  c('copy.portal', ['m'], 'copy', 'Copy', 'Copy the MAG portal URL', { footer: true }),
  c('copy.close', ['escape'], 'copy', 'Copy', 'Cancel', { footer: true }),

  // Search field
  c('search.apply', ['enter'], 'search', 'Input', 'Search now', { footer: true }),
  c('search.clear', ['escape'], 'search', 'Input', 'Clear the search', { footer: true }),

  // Command palette
  c('palette.run', ['enter'], 'palette', 'Input', 'Run', { footer: true }),
  c('palette.complete', ['tab'], 'palette', 'Input', 'Complete', { footer: true }),
  c('palette.historyPrev', ['up'], 'palette', 'Input', 'Previous command'),
  c('palette.historyNext', ['down'], 'palette', 'Input', 'Next command'),
  c('palette.close', ['escape'], 'palette', 'Input', 'Close', { footer: true }),

  // Create / trial form
  c('form.next', ['tab', 'down'], 'form', 'Input', 'Next field', { footer: true }),
  c('form.prev', ['shift+tab', 'up'], 'form', 'Input', 'Previous field'),
  c('form.decrease', ['left'], 'form', 'Input', 'Previous choice (package, connections)'),
  c('form.increase', ['right'], 'form', 'Input', 'Next choice (package, connections)', { footer: true }),
  c('form.toggle', ['space'], 'form', 'Input', 'Toggle enabled; pick bouquets'),
  c('form.generate', ['ctrl+g'], 'form', 'Input', 'Fill a random valid username or password', {
    footer: true,
  }),
  c('form.submit', ['enter'], 'form', 'Input', 'Check and show the cost', { footer: true }),
  c('form.cancel', ['escape'], 'form', 'Input', 'Close the form', { footer: true }),

  // Bouquet picker
  c('picker.down', ['down'], 'picker', 'Input', 'Next bouquet'),
  c('picker.up', ['up'], 'picker', 'Input', 'Previous bouquet'),
  c('picker.toggle', ['space'], 'picker', 'Input', 'Choose or drop the bouquet', {
    footer: true,
    overText: true,
  }),
  c('picker.tab', ['tab'], 'picker', 'Input', 'Channels / movies', { footer: true }),
  c('picker.all', ['ctrl+a'], 'picker', 'Input', 'Choose every bouquet shown', { footer: true }),
  c('picker.none', ['ctrl+n'], 'picker', 'Input', 'Drop every bouquet shown', { footer: true }),
  c('picker.same', ['ctrl+l'], 'picker', 'Input', 'Same bouquets as a line created earlier (again: older)', {
    footer: true,
  }),
  c('picker.done', ['enter'], 'picker', 'Input', 'Done', { footer: true }),
  c('picker.cancel', ['escape'], 'picker', 'Input', 'Undo and close', { footer: true }),

  // Confirm dialog of every change
  c('action.confirm', ['enter'], 'action', 'Line', 'Confirm (exactly one request)', {
    footer: true,
    danger: true,
  }),
  c('action.cancel', ['escape'], 'action', 'Line', 'Back (cancel is the default)', { footer: true }),
  c('action.decrease', ['left'], 'action', 'Line', 'Fewer months or connections', { footer: true }),
  c('action.increase', ['right'], 'action', 'Line', 'More months or connections', { footer: true }),
  c('action.copy', ['y'], 'action', 'Copy', 'Copy the new credentials', { footer: true }),
  c('action.recheck', ['r'], 'action', 'Line', 'Check the server again (unknown outcome)', { footer: true }),

  // Bulk job over the marked lines
  c('bulk.start', ['enter'], 'bulk', 'Line', 'Start the job', { footer: true, danger: true }),
  c('bulk.close', ['escape'], 'bulk', 'Line', 'Close (cancel is the default)', { footer: true }),
  c('bulk.decrease', ['left'], 'bulk', 'Line', 'Fewer months or connections', { footer: true }),
  c('bulk.increase', ['right'], 'bulk', 'Line', 'More months or connections', { footer: true }),
  c('bulk.affordable', ['a'], 'bulk', 'Line', 'Only the affordable ones (on/off)', { footer: true }),
  c('bulk.cancel', ['c'], 'bulk', 'Line', 'Cancel: stop scheduling, let requests in flight finish', {
    footer: true,
  }),
  c('bulk.retry', ['f'], 'bulk', 'Line', 'Retry the failed ones (quoted again first)', { footer: true }),
  c('bulk.export', ['x'], 'bulk', 'Line', 'Export the results as CSV and JSON', { footer: true }),
  c('bulk.recheck', ['r'], 'bulk', 'Line', 'Check the unknown lines with the server again', { footer: true }),
  c('bulk.down', ['down'], 'bulk', 'Navigate', 'Scroll the lines down'),
  c('bulk.up', ['up'], 'bulk', 'Navigate', 'Scroll the lines up'),
  c('bulk.pageDown', ['pagedown'], 'bulk', 'Navigate', 'Scroll the lines a page down', { footer: true }),
  c('bulk.pageUp', ['pageup'], 'bulk', 'Navigate', 'Scroll the lines a page up'),

  // At start: changes left open in the intent log (checked first), an interrupted job to resume
  c('resume.yes', ['enter'], 'resume', 'Line', 'Resume the lines never sent', { footer: true }),
  c('resume.recheck', ['r'], 'resume', 'Line', 'Check the unknown ones with the server again', {
    footer: true,
  }),
  c('resume.no', ['escape'], 'resume', 'Line', 'Close (unsent lines set aside; unknown ones kept)', {
    footer: true,
  }),

  // Profiles (:profile)
  c('profiles.close', ['escape', 'enter'], 'profiles', 'App', 'Close', { footer: true }),
  c('profile.next', ['tab', 'down', 'up'], 'profileAdd', 'Input', 'Next field', { footer: true }),
  c('profile.submit', ['enter'], 'profileAdd', 'Input', 'Check the account (GET /v1/me) and save', {
    footer: true,
  }),
  c('profile.cancel', ['escape'], 'profileAdd', 'Input', 'Cancel', { footer: true }),

  // Journal
  c('journal.export', ['x'], 'journal', 'App', 'Export the journal as CSV', { footer: true }),
  c('journal.down', ['down', 'j'], 'journal', 'Navigate', 'Scroll down'),
  c('journal.up', ['up', 'k'], 'journal', 'Navigate', 'Scroll up'),
  c('journal.pageDown', ['pagedown'], 'journal', 'Navigate', 'Scroll a page down', { footer: true }),
  c('journal.pageUp', ['pageup'], 'journal', 'Navigate', 'Scroll a page up'),

  // Help overlay
  c('help.close', ['escape', '?', 'q'], 'help', 'App', 'Close help', { footer: true }),
  c('help.down', ['down', 'j'], 'help', 'Navigate', 'Scroll down'),
  c('help.up', ['up', 'k'], 'help', 'Navigate', 'Scroll up'),
  c('help.pageDown', ['pagedown'], 'help', 'Navigate', 'Scroll a page down', { footer: true }),
  c('help.pageUp', ['pageup'], 'help', 'Navigate', 'Scroll a page up'),
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

/** The scopes help shows on a screen: the screen's own, the menus opened from it, then global. */
export function helpScopes(screen: Scope): Scope[] {
  const menus: Partial<Record<Scope, Scope[]>> = { lines: ['search', 'marks'], detail: ['copy'] };
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

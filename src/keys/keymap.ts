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
  | 'copy';

export type Group = 'App' | 'Navigate' | 'Find' | 'Marks' | 'Line' | 'Copy' | 'Input';

export interface Command {
  readonly id: string;
  /** Key names: single characters ('j', 'G', '?'), or 'up' 'down' 'left' 'right' 'pageup' 'pagedown'
   *  'home' 'end' 'enter' 'escape' 'space' 'tab' 'backspace' 'delete', or 'ctrl+x'. */
  readonly keys: readonly string[];
  readonly scope: Scope;
  readonly label: string;
  readonly group: Group;
  /** Shown in the footer of its scope (the footer is short; help shows everything). */
  readonly footer?: boolean;
  /** Changes or removes data; help marks it. */
  readonly danger?: boolean;
}

const c = (
  id: string,
  keys: readonly string[],
  scope: Scope,
  group: Group,
  label: string,
  extra: Partial<Command> = {},
): Command => ({ id, keys, scope, group, label, ...extra });

export const COMMANDS: readonly Command[] = [
  // Everywhere
  c('app.help', ['?'], 'global', 'App', 'Help', { footer: true }),
  c('app.palette', [':'], 'global', 'App', 'Command palette', { footer: true }),
  c('app.back', ['escape'], 'global', 'App', 'Close or back'),
  c('app.backOrQuit', ['q'], 'global', 'App', 'Back (quit from the first screen)', { footer: true }),
  c('app.quit', ['ctrl+c'], 'global', 'App', 'Quit'),
  c('app.refresh', ['r'], 'global', 'App', 'Refresh (or retry after an error)', { footer: true }),
  c('nav.account', ['1'], 'global', 'Navigate', 'Account summary'),
  c('nav.lines', ['2'], 'global', 'Navigate', 'Lines'),
  c('nav.packages', ['3'], 'global', 'Navigate', 'Packages'),
  c('nav.bouquets', ['4'], 'global', 'Navigate', 'Bouquets'),

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
  c('lines.markAll', ['A'], 'lines', 'Marks', 'Mark every line matching the filter'),

  // Line detail
  c('detail.password', ['p'], 'detail', 'Line', 'Show or hide the password', { footer: true }),
  c('detail.copy', ['y'], 'detail', 'Copy', 'Copy… (credentials, username, password, portal URL)', {
    footer: true,
  }),

  // Copy menu (OSC 52: works over SSH and inside tmux)
  c('copy.credentials', ['c'], 'copy', 'Copy', 'Copy username and password', { footer: true }),
  c('copy.username', ['u'], 'copy', 'Copy', 'Copy the username', { footer: true }),
  c('copy.password', ['p'], 'copy', 'Copy', 'Copy the password', { footer: true }),
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

  // Help overlay
  c('help.close', ['escape', '?', 'q'], 'help', 'App', 'Close help', { footer: true }),
];

export type CommandId = string;

const byId = new Map(COMMANDS.map((cmd) => [cmd.id, cmd]));

export function command(id: CommandId): Command {
  const cmd = byId.get(id);
  if (!cmd) throw new Error(`no command ${id}`);
  return cmd;
}

export const commandsIn = (scope: Scope) => COMMANDS.filter((cmd) => cmd.scope === scope);

/** The command bound to `key` in `scope`, if any. */
export function lookup(scope: Scope, key: string): Command | undefined {
  return COMMANDS.find((cmd) => cmd.scope === scope && cmd.keys.includes(key));
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
  return KEY_LABELS[key] ?? key;
}

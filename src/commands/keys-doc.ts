import { MIN_COLUMNS, MIN_ROWS } from '../present/min-size';
import { type CommandId, keyHintText, keyLabel, type Scope, visibleCommands } from './keymap';

/** A command's first key as help and the docs write it, from the table as it is now. */
const k = (id: CommandId) => keyHintText(id);

/**
 * The heading of a scope in help and docs/KEYS.md; the keys it names are read from the table, so a
 * key moved in the config moves here too.
 */
export function scopeTitle(scope: Scope): string {
  switch (scope) {
    case 'copy':
      return `Copy menu (after ${k('line.copy')})`;
    case 'message':
      return `Message picker (${k('line.copy')} then ${k('copy.message')}; ${k('messages.export')} in marks and renewals)`;
    case 'form':
      return `New line form (${k('line.create')}, ${k('line.trial')})`;
    case 'picker':
      return `Bouquet picker (${k('form.toggle')} on Bouquets)`;
    case 'journal':
      return `Journal (${k('nav.journal')})`;
    case 'marks':
      return `Marks view (${k('lines.marks')})`;
    case 'renewals':
      return `Renewals (${k('nav.renewals')})`;
    case 'bulk':
      return `Bulk job (${(['line.extend', 'line.upgrade', 'line.unsuspend', 'line.delete'] as const).map(k).join(', ')} with lines marked)`;
    case 'note':
      return `Note form (${k('note.edit')})`;
    case 'columns':
      return `Column picker (${k('lines.columns')})`;
    default:
      return FIXED_TITLES[scope];
  }
}

const FIXED_TITLES: Record<Scope, string> = {
  global: 'Everywhere',
  lines: 'Lines browser',
  detail: 'Line detail',
  copy: 'Copy menu',
  message: 'Message picker',
  form: 'New line form',
  picker: 'Bouquet picker',
  action: 'Confirm dialog of every change',
  journal: 'Journal',
  marks: 'Marks view',
  renewals: 'Renewals',
  find: 'Find across accounts (:find TEXT)',
  bulk: 'Bulk job',
  resume: 'Resuming an interrupted bulk job',
  profiles: 'Profiles list (:profile)',
  profileAdd: 'New profile (:profile add)',
  note: 'Note form',
  columns: 'Column picker',
  output: "A command of yours: its question and output (the config's commands)",
  search: 'Search field',
  palette: 'Command palette',
  help: 'Help overlay',
  account: 'Account',
  packages: 'Packages',
  bouquets: 'Bouquets',
  small: `Terminal too small (below ${MIN_COLUMNS}×${MIN_ROWS})`,
  welcome: 'Welcome (the first start, with no config yet: these keys are fixed)',
  connect: 'Welcome: connecting an account (base URL and API key)',
};

/** Every scope's heading with the default keys (the order is docs/KEYS.md's). */
export const SCOPE_TITLES: Readonly<Record<Scope, string>> = Object.fromEntries(
  (Object.keys(FIXED_TITLES) as Scope[]).map((scope) => [scope, scopeTitle(scope)]),
) as Record<Scope, string>;

/** The key tables of docs/KEYS.md, generated from the keymap (a test keeps them in step). */
export function keysMarkdown(): string {
  const out: string[] = [];
  for (const scope of Object.keys(FIXED_TITLES) as Scope[]) {
    const cmds = visibleCommands(scope);
    if (!cmds.length) continue;
    out.push(
      `**${scopeTitle(scope)}**`,
      '',
      '| keys | command | id (for `keys` in the config) |',
      '|---|---|---|',
    );
    for (const c of cmds) {
      const keys = c.keys.map((k) => `\`${keyLabel(k).replace('|', '\\|')}\``).join(' ');
      out.push(`| ${keys} | ${c.label}${c.danger ? ' (changes data)' : ''} | \`${c.id}\` |`);
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}

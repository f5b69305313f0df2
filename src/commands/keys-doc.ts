import { keyLabel, type Scope, visibleCommands } from './keymap';

export const SCOPE_TITLES: Record<Scope, string> = {
  global: 'Everywhere',
  lines: 'Lines browser',
  detail: 'Line detail',
  copy: 'Copy menu (after y)',
  message: 'Message picker (y then t; x in marks and renewals)',
  form: 'New line form (c, C)',
  picker: 'Bouquet picker (Space on Bouquets)',
  action: 'Confirm dialog of every change',
  journal: 'Journal (5)',
  marks: 'Marks view (M)',
  renewals: 'Renewals (6)',
  find: 'Find across accounts (:find TEXT)',
  bulk: 'Bulk job (e, u, s, d with lines marked)',
  resume: 'Resuming an interrupted bulk job',
  profiles: 'Profiles list (:profile)',
  profileAdd: 'New profile (:profile add)',
  note: 'Note form (n)',
  output: "A command of yours: its question and output (the config's commands)",
  search: 'Search field',
  palette: 'Command palette',
  help: 'Help overlay',
  account: 'Account',
  packages: 'Packages',
  bouquets: 'Bouquets',
};

/** The key tables of docs/KEYS.md, generated from the keymap (a test keeps them in step). */
export function keysMarkdown(): string {
  const out: string[] = [];
  for (const scope of Object.keys(SCOPE_TITLES) as Scope[]) {
    const cmds = visibleCommands(scope);
    if (!cmds.length) continue;
    out.push(
      `**${SCOPE_TITLES[scope]}**`,
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

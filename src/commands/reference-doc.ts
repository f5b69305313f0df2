/**
 * The manual's command reference (docs/COMMANDS.md), generated from the same tables the command
 * line, `--help`, completion and the `:` palette read: spec.ts for `linedesk COMMAND`, the palette's
 * table for `:` commands, the keymap for the README's most-used keys. `npm run docs` writes them; a
 * test keeps them in step.
 */
import { keyLabel } from './hints';
import { type CommandId, command } from './keymap';
import { PALETTE, paletteUsage } from './palette';
import { COMMAND_NAMES, COMMANDS, optionsOf, TARGET } from './spec';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

/** `linedesk --help` as a table, then each command's usage, options, notes and examples. */
export function commandsMarkdown(): string {
  const out: string[] = ['| command | what it does |', '|---|---|'];
  for (const n of COMMAND_NAMES)
    out.push(`| [${code(`linedesk ${n}`)}](#linedesk-${n}) | ${cell(COMMANDS[n].summary)} |`);
  out.push(
    '',
    'Every command that reaches a service also takes the target flags:',
    '',
    '| option | what it does |',
    '|---|---|',
    ...TARGET.map((o) => `| ${code(`--${o.name}${o.value ? ` ${o.value}` : ''}`)} | ${cell(o.help)} |`),
  );
  for (const n of COMMAND_NAMES) {
    const spec = COMMANDS[n];
    const own = optionsOf(spec).filter((o) => !TARGET.includes(o));
    out.push(
      '',
      `### linedesk ${n}`,
      '',
      `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.${spec.mutation ? ' Changes data: quoted first, sent only with `--yes`.' : ''}${spec.palette ? ` Also \`:${n}\` in the app.` : ''}`,
      '',
      '```sh',
      `linedesk ${n} ${spec.usage}`,
      '```',
      '',
      '| option | what it does |',
      '|---|---|',
      ...own.map(
        (o) =>
          `| ${code(`${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`)} | ${cell(o.help)} |`,
      ),
    );
    if (spec.notes) out.push('', spec.notes.replace(/\n/g, ' '));
    out.push('', 'Examples:', '', '```sh', ...spec.examples, '```');
  }
  return out.join('\n');
}

/** The `:` palette's commands, as its completion names them. */
export function paletteMarkdown(): string {
  const out = ['| command | what it does |', '|---|---|'];
  for (const cmd of PALETTE) out.push(`| ${code(`:${paletteUsage(cmd)}`)} | ${cell(cmd.help)} |`);
  return out.join('\n');
}

/** The keys a newcomer uses most, for the README (the rest: docs/KEYS.md). */
export const TOP_KEYS: readonly CommandId[] = [
  'lines.open',
  'lines.search',
  'lines.filterStatus',
  'lines.mark',
  'line.create',
  'line.extend',
  'line.copy',
  'note.edit',
  'nav.renewals',
  'nav.journal',
  'app.palette',
  'app.help',
  'app.backOrQuit',
];

export function topKeysMarkdown(): string {
  const out = ['| keys | command |', '|---|---|'];
  for (const id of TOP_KEYS) {
    const c = command(id);
    out.push(`| ${c.keys.map((k) => code(keyLabel(k))).join(' ')} | ${cell(c.label)} |`);
  }
  return out.join('\n');
}

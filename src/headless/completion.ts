/** Shell completion scripts, made from the command table (spec.ts): a new option completes at once. */
import { DEFAULT_TEMPLATES } from '../domain/templates';
import { COMMAND_NAMES, COMMANDS, type CommandName, optionsOf } from './spec';

const TOP = [
  ...COMMAND_NAMES,
  'sandbox',
  '--help',
  '--version',
  '--sandbox',
  '--profile',
  '--base-url',
  '--read-only',
];
/** Positional values a command completes (beyond its options). */
const POSITIONAL: Partial<Record<CommandName, readonly string[]>> = {
  completion: ['bash', 'zsh', 'fish'],
  message: DEFAULT_TEMPLATES.map((t) => t.id),
};

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

function bash(): string {
  const cases = COMMAND_NAMES.map((name) => {
    const opts = optionsOf(COMMANDS[name]);
    // After an option that takes a value: its choices, its list's names after the last comma, or
    // nothing (never the flags: they are not its value).
    const valued = opts
      .filter((o) => o.type === 'string')
      .map((o) =>
        o.choices
          ? `        --${o.name}) COMPREPLY=( $(compgen -W ${quote(o.choices.join(' '))} -- "$cur") ); return ;;`
          : o.list
            ? `        --${o.name}) local pre=""; [[ "$cur" == *,* ]] && pre="\${cur%,*},"; COMPREPLY=( $(compgen -P "$pre" -W ${quote(o.list.join(' '))} -- "\${cur##*,}") ); compopt -o nospace 2>/dev/null; return ;;`
            : `        --${o.name}) return ;;`,
      );
    const words = [...opts.map((o) => `--${o.name}`), ...(POSITIONAL[name] ?? [])].join(' ');
    return [
      `    ${name})`,
      ...(valued.length ? ['      case "$prev" in', ...valued, '      esac'] : []),
      `      COMPREPLY=( $(compgen -W ${quote(words)} -- "$cur") ) ;;`,
    ].join('\n');
  });
  return `# linedesk completion for bash: source <(linedesk completion bash)
_linedesk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W ${quote(TOP.join(' '))} -- "$cur") )
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
}
complete -F _linedesk linedesk
`;
}

function zsh(): string {
  const cases = COMMAND_NAMES.map((name) => {
    const opts = optionsOf(COMMANDS[name]);
    const valued = opts
      .filter((o) => o.type === 'string')
      .map((o) =>
        o.choices
          ? `        --${o.name}) compadd -- ${o.choices.map(quote).join(' ')}; return ;;`
          : o.list
            ? `        --${o.name}) compset -P '*,'; compadd -q -S , -- ${o.list.map(quote).join(' ')}; return ;;`
            : `        --${o.name}) return ;;`,
      );
    const words = [...opts.map((o) => `--${o.name}`), ...(POSITIONAL[name] ?? [])].map(quote).join(' ');
    return [
      `    ${name})`,
      ...(valued.length ? ['      case $words[CURRENT-1] in', ...valued, '      esac'] : []),
      `      compadd -- ${words} ;;`,
    ].join('\n');
  });
  return `#compdef linedesk
# linedesk completion for zsh: source <(linedesk completion zsh)   (after compinit)
_linedesk() {
  if (( CURRENT == 2 )); then
    compadd -- ${TOP.map(quote).join(' ')}
    return
  fi
  case $words[2] in
${cases.join('\n')}
  esac
}
compdef _linedesk linedesk
`;
}

function fish(): string {
  const lines = [
    '# linedesk completion for fish: linedesk completion fish | source',
    'complete -c linedesk -f',
    ...COMMAND_NAMES.map(
      (n) => `complete -c linedesk -n __fish_use_subcommand -a ${n} -d ${quote(COMMANDS[n].summary)}`,
    ),
  ];
  for (const name of COMMAND_NAMES) {
    const when = `-n ${quote(`__fish_seen_subcommand_from ${name}`)}`;
    for (const o of optionsOf(COMMANDS[name])) {
      const offered = o.choices ?? o.list;
      const value = o.type === 'string' ? (offered ? ` -x -a ${quote(offered.join(' '))}` : ' -r') : '';
      lines.push(
        `complete -c linedesk ${when} -l ${o.name}${o.short ? ` -s ${o.short}` : ''}${value} -d ${quote(o.help)}`,
      );
    }
    const pos = POSITIONAL[name];
    if (pos) lines.push(`complete -c linedesk ${when} -a ${quote(pos.join(' '))}`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: 'bash' | 'zsh' | 'fish'): string {
  return shell === 'bash' ? bash() : shell === 'zsh' ? zsh() : fish();
}

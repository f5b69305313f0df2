/**
 * Shell completion scripts, made from the command table (spec.ts): a new option completes at once.
 * Names only the config knows (profiles, the config's templates) come from a hidden call the
 * scripts make as they complete, `linedesk __complete profiles|templates` (complete-values.ts), run
 * as the command was typed: a profile added a minute ago completes, and no script reads the config.
 */
import type { KnownValues, OptionSpec } from '../commands/args';
import { COMMAND_NAMES, COMMANDS, type CommandName, optionsOf, TARGET } from '../commands/spec';
import { DEFAULT_TEMPLATES } from '../domain/templates';

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
/** An option's values to offer: a list's, or a word's suggestions (`--sort`). */
const choicesOf = (o: OptionSpec): readonly string[] | undefined =>
  o.arg?.kind === 'choice'
    ? o.arg.values
    : o.arg?.kind === 'word' || o.arg?.kind === 'sort'
      ? o.arg.suggest
      : undefined;
/** A comma-separated list's names (`--fields id,username`). */
const listOf = (o: OptionSpec): readonly string[] | undefined =>
  o.arg?.kind === 'list' ? o.arg.values : undefined;

/** An option whose value is a name only the config knows (`--view NAME`): asked as the shell completes. */
const knownOf = (o: OptionSpec): KnownValues | undefined =>
  o.arg?.kind === 'known' ? o.arg.values : undefined;

/** Positional values a command completes (beyond its options): its first argument's list. */
const POSITIONAL = (name: CommandName): readonly string[] | undefined => {
  const arg = COMMANDS[name].positionals[0]?.arg;
  return arg?.kind === 'choice' ? arg.values : undefined;
};
/** What the config holds for each kind of name, when the shell cannot ask. */
const FALLBACK: Record<KnownValues, readonly string[]> = {
  profiles: [],
  templates: DEFAULT_TEMPLATES.map((t) => t.id),
  views: [],
  commands: [], // the app's own (`:run`), not the command line's
};
/** Positional values read from the config as the shell completes (the defaults when it cannot ask). */
const DYNAMIC = (name: CommandName) => {
  const arg = COMMANDS[name].positionals[0]?.arg;
  return arg?.kind === 'known' ? { what: arg.values, fallback: FALLBACK[arg.values] } : undefined;
};

/** Target flags that take a value (skipped with it when finding the command's name), and those that do not. */
const TARGET_VALUED = TARGET.filter((o) => o.type === 'string').map((o) => `--${o.name}`);
const TARGET_BARE = TARGET.filter((o) => o.type !== 'string').map((o) => `--${o.name}`);

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

function bash(): string {
  const cases = COMMAND_NAMES.map((name) => {
    const opts = optionsOf(COMMANDS[name]);
    // After an option that takes a value: its choices, its list's names after the last comma, or
    // nothing (never the flags: they are not its value).
    const valued = opts
      .filter((o) => o.type === 'string')
      .map((o) =>
        choicesOf(o)
          ? `        --${o.name}) COMPREPLY=( $(compgen -W ${quote(choicesOf(o)!.join(' '))} -- "$cur") ); return ;;`
          : knownOf(o)
            ? `        --${o.name}) COMPREPLY=( $(compgen -W "$("\${COMP_WORDS[0]}" __complete ${knownOf(o)} 2>/dev/null)" -- "$cur") ); return ;;`
            : listOf(o)
              ? `        --${o.name}) local pre=""; [[ "$cur" == *,* ]] && pre="\${cur%,*},"; COMPREPLY=( $(compgen -P "$pre" -W ${quote(listOf(o)!.join(' '))} -- "\${cur##*,}") ); compopt -o nospace 2>/dev/null; return ;;`
              : `        --${o.name}) return ;;`,
      );
    const words = [...opts.map((o) => `--${o.name}`), ...(POSITIONAL(name) ?? [])].join(' ');
    const dyn = DYNAMIC(name);
    const extra = dyn
      ? [
          `      local names; names=$("\${COMP_WORDS[0]}" __complete ${dyn.what} 2>/dev/null)`,
          `      [ -n "$names" ] || names=${quote(dyn.fallback.join(' '))}`,
        ]
      : [];
    return [
      `    ${name})`,
      ...(valued.length ? ['      case "$prev" in', ...valued, '      esac'] : []),
      ...extra,
      `      COMPREPLY=( $(compgen -W ${quote(words)}${dyn ? '" $names"' : ''} -- "$cur") ) ;;`,
    ].join('\n');
  });
  return `# linedesk completion for bash: source <(linedesk completion bash)
_linedesk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    --profile) COMPREPLY=( $(compgen -W "$("\${COMP_WORDS[0]}" __complete profiles 2>/dev/null)" -- "$cur") ); return ;;
    ${TARGET_VALUED.filter((f) => f !== '--profile').join('|')}) return ;;
  esac
  # The command is the first word after the target flags: linedesk --profile shopB lines …
  local i=1 cmd=""
  while [ "$i" -lt "$COMP_CWORD" ]; do
    case "\${COMP_WORDS[i]}" in
      ${TARGET_BARE.join('|')}) i=$((i + 1)) ;;
      ${TARGET_VALUED.join('|')}) i=$((i + 2)) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [ -z "$cmd" ]; then
    COMPREPLY=( $(compgen -W ${quote(TOP.join(' '))} -- "$cur") )
    return
  fi
  case "$cmd" in
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
        choicesOf(o)
          ? `        --${o.name}) compadd -- ${choicesOf(o)!.map(quote).join(' ')}; return ;;`
          : knownOf(o)
            ? `        --${o.name}) compadd -- \${(f)"$($words[1] __complete ${knownOf(o)} 2>/dev/null)"}; return ;;`
            : listOf(o)
              ? `        --${o.name}) compset -P '*,'; compadd -q -S , -- ${listOf(o)!.map(quote).join(' ')}; return ;;`
              : `        --${o.name}) return ;;`,
      );
    const words = [...opts.map((o) => `--${o.name}`), ...(POSITIONAL(name) ?? [])].map(quote).join(' ');
    const dyn = DYNAMIC(name);
    const extra = dyn
      ? [
          `      local -a names; names=(\${(f)"$($words[1] __complete ${dyn.what} 2>/dev/null)"})`,
          `      (( $#names )) || names=(${dyn.fallback.map(quote).join(' ')})`,
        ]
      : [];
    return [
      `    ${name})`,
      ...(valued.length ? ['      case $words[CURRENT-1] in', ...valued, '      esac'] : []),
      ...extra,
      `      compadd -- ${words}${dyn ? ' $names' : ''} ;;`,
    ].join('\n');
  });
  return `#compdef linedesk
# linedesk completion for zsh: source <(linedesk completion zsh)   (after compinit)
_linedesk() {
  case $words[CURRENT-1] in
    --profile) compadd -- \${(f)"$($words[1] __complete profiles 2>/dev/null)"}; return ;;
    ${TARGET_VALUED.filter((f) => f !== '--profile').join('|')}) return ;;
  esac
  # The command is the first word after the target flags: linedesk --profile shopB lines …
  local i=2 cmd=""
  while (( i < CURRENT )); do
    case $words[i] in
      ${TARGET_BARE.join('|')}) (( i += 1 )) ;;
      ${TARGET_VALUED.join('|')}) (( i += 2 )) ;;
      *) cmd=$words[i]; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    compadd -- ${TOP.map(quote).join(' ')}
    return
  fi
  case $cmd in
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
    // Names only the config knows, asked as the shell completes.
    `complete -c linedesk -l profile -x -a '(linedesk __complete profiles 2>/dev/null)' -d 'use the named profile'`,
    ...COMMAND_NAMES.map(
      (n) => `complete -c linedesk -n __fish_use_subcommand -a ${n} -d ${quote(COMMANDS[n].summary)}`,
    ),
  ];
  for (const name of COMMAND_NAMES) {
    const when = `-n ${quote(`__fish_seen_subcommand_from ${name}`)}`;
    for (const o of optionsOf(COMMANDS[name])) {
      const offered = choicesOf(o) ?? listOf(o);
      const known = knownOf(o);
      const value =
        o.type !== 'string'
          ? ''
          : known
            ? ` -x -a '(linedesk __complete ${known} 2>/dev/null)'`
            : offered
              ? ` -x -a ${quote(offered.join(' '))}`
              : ' -r';
      lines.push(
        `complete -c linedesk ${when} -l ${o.name}${o.short ? ` -s ${o.short}` : ''}${value} -d ${quote(o.help)}`,
      );
    }
    const pos = POSITIONAL(name);
    if (pos) lines.push(`complete -c linedesk ${when} -a ${quote(pos.join(' '))}`);
    const dyn = DYNAMIC(name);
    if (dyn) lines.push(`complete -c linedesk ${when} -a '(linedesk __complete ${dyn.what} 2>/dev/null)'`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: 'bash' | 'zsh' | 'fish'): string {
  return shell === 'bash' ? bash() : shell === 'zsh' ? zsh() : fish();
}

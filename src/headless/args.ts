import { parseWords, type Values } from '../commands/args';
import {
  COMMANDS,
  type CommandName,
  type CommandSpec,
  commandHelp,
  isCommandName,
  optionsOf,
} from '../commands/spec';
import { RULES } from '../domain/change-rules';

export { parseDays, type Values } from '../commands/args';

/** What a subcommand's argv asks for. Pure: every rule is tested without a process. */
export type Parsed =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'usage'; readonly message: string; readonly path: readonly string[] | null }
  | {
      readonly kind: 'run';
      readonly command: CommandName;
      readonly values: Values;
      readonly args: readonly string[];
      readonly format: Format;
      readonly target: {
        readonly sandbox: boolean;
        readonly baseUrl: string | null;
        readonly profile: string | null;
      };
    };

type Format = 'table' | 'json' | 'ndjson' | 'csv';

const usage = (message: string, path: readonly string[] | null = null): Parsed => ({
  kind: 'usage',
  message,
  path,
});

/** `linedesk NAME …` (argv without the name's predecessors: argv[0] is the subcommand). */
export function parseHeadless(argv: readonly string[]): Parsed {
  const name = argv[0];
  if (!isCommandName(name)) return usage(`unknown command ${name ?? ''}`.trim());
  const spec: CommandSpec = COMMANDS[name];
  // The one parser the palette uses too (commands/args.ts), with the command line's own options.
  const parsed = parseWords(
    { ...spec, options: optionsOf(spec) },
    argv.slice(1),
    'cli',
    `linedesk ${name} ${spec.usage}`,
  );
  if (!parsed.ok) return usage(parsed.message, parsed.path);
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', text: commandHelp(spec) };

  const formats = (['json', 'ndjson', 'csv'] as const).filter((f) => values[f]);
  if (formats.length > 1) return usage(`--${formats.join(' and --')} cannot be used together`);
  const targets = [
    values.sandbox && '--sandbox',
    values['base-url'] !== undefined && '--base-url',
    values.profile !== undefined && '--profile',
  ].filter(Boolean);
  if (targets.length > 1) return usage(`${targets.join(' and ')} cannot be used together`);
  if (typeof values.profile === 'string' && !/^[A-Za-z0-9._-]{1,32}$/.test(values.profile))
    return usage(`--profile: "${values.profile.slice(0, 40)}" is not a profile name`, ['profile']);
  if (values['base-url'] === '') return usage('--base-url needs a URL', ['base-url']);
  if (values['read-only'] && spec.mutation)
    return usage(`${RULES.readOnly}: ${name} changes lines, and nothing was sent`, ['read-only']);

  if (spec.positionals[0]?.name === 'ID|USERNAME' && spec.mutation) {
    if (values.stdin && positionals.length) return usage('give a line, or --stdin, not both');
    if (!values.stdin && !positionals.length)
      return usage(`ID|USERNAME is missing, or --stdin (usage: linedesk ${name} ${spec.usage})`);
  }
  if (name === 'message' && !values.list && positionals.length < 2)
    return usage(
      `${positionals.length ? 'ID|USERNAME' : 'TEMPLATE'} is missing (usage: linedesk message ${spec.usage})`,
    );

  return {
    kind: 'run',
    command: name,
    values,
    args: positionals,
    format: formats[0] ?? 'table',
    target: {
      sandbox: values.sandbox === true,
      baseUrl: typeof values['base-url'] === 'string' ? values['base-url'] : null,
      profile: typeof values.profile === 'string' ? values.profile : null,
    },
  };
}

/** A whole number within bounds, or the message that names the option. */
export function wholeOption(
  values: Values,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback?: number },
): number | { message: string; path: string[] } {
  const raw = values[name];
  if (raw === undefined) {
    if (fallback !== undefined) return fallback;
    return { message: `--${name} is required (${min} to ${max})`, path: [name] };
  }
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    return {
      message: `--${name} takes a whole number from ${min} to ${max}, got "${String(raw).slice(0, 20)}"`,
      path: [name],
    };
  return Number(raw);
}

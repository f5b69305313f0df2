import { type ParseArgsConfig, parseArgs } from 'node:util';
import { RULES } from '../domain/change-rules';
import { COMMANDS, type CommandName, type CommandSpec, commandHelp, isCommandName, optionsOf } from './spec';

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

export type Format = 'table' | 'json' | 'ndjson' | 'csv';
export type Values = Readonly<Record<string, string | boolean | undefined>>;

const usage = (message: string, path: readonly string[] | null = null): Parsed => ({
  kind: 'usage',
  message,
  path,
});

/** node's message, shortened, with the option it concerns as the path (`--foo` → ["foo"]). */
function parseError(err: unknown): Parsed {
  const msg = (err as Error).message;
  const name = (flag: string | undefined) => {
    const long = flag?.split(',').pop()?.trim() ?? '';
    return { long, path: long ? [long.replace(/^-+/, '').replace(/=.*$/, '')] : null };
  };
  const unknown = /Unknown option '([^']+)'/.exec(msg);
  if (unknown) return usage(`unknown option ${unknown[1]}`, name(unknown[1]).path);
  const missing = /Option '([^']+)' argument missing/.exec(msg);
  if (missing) return usage(`option ${name(missing[1]).long} needs a value`, name(missing[1]).path);
  const ambiguous = /Option '([^']+)' argument is ambiguous/.exec(msg);
  if (ambiguous)
    return usage(
      `option ${name(ambiguous[1]).long} needs a value (write --name=value)`,
      name(ambiguous[1]).path,
    );
  return usage(msg.split('\n')[0] ?? msg);
}

/** `linedesk NAME …` (argv without the name's predecessors: argv[0] is the subcommand). */
export function parseHeadless(argv: readonly string[]): Parsed {
  const name = argv[0];
  if (!isCommandName(name)) return usage(`unknown command ${name ?? ''}`.trim());
  const spec: CommandSpec = COMMANDS[name];
  const options = Object.fromEntries(
    optionsOf(spec).map((o) => [o.name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]),
  );
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv.slice(1),
      options: options as NonNullable<ParseArgsConfig['options']>,
      strict: true,
      allowPositionals: true,
    }) as { values: Record<string, string | boolean | undefined>; positionals: string[] });
  } catch (err) {
    return parseError(err);
  }
  if (values.help) return { kind: 'help', text: commandHelp(spec) };
  if (positionals.length > spec.args.max)
    return usage(`unexpected argument ${positionals[spec.args.max]} (usage: linedesk ${name} ${spec.usage})`);
  const needsArg = positionals.length < spec.args.min;
  if (needsArg)
    return usage(`${spec.args.names[positionals.length]} is missing (usage: linedesk ${name} ${spec.usage})`);

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

  if (spec.args.names[0] === 'ID|USERNAME' && spec.mutation) {
    if (values.stdin && positionals.length) return usage('give a line, or --stdin, not both');
    if (!values.stdin && !positionals.length)
      return usage(`ID|USERNAME is missing, or --stdin (usage: linedesk ${name} ${spec.usage})`);
  }
  if (name === 'message' && !values.list && positionals.length < 2)
    return usage(
      `${positionals.length ? 'ID|USERNAME' : 'TEMPLATE'} is missing (usage: linedesk message ${spec.usage})`,
    );
  if (name === 'completion' && !['bash', 'zsh', 'fish'].includes(positionals[0]!))
    return usage(`completion takes bash, zsh or fish, not "${positionals[0]}"`, ['shell']);

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

/** "7d", "7", "14 days" → 7; null when it is not a number of days from 1 to 365. */
export function parseDays(text: string): number | null {
  const m = /^\s*(\d{1,3})\s*(d|day|days)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 365 ? n : null;
}

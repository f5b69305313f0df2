/**
 * The one argument parser: a command's words (argv after its name, or the palette's line split as
 * a shell would) read against its spec (spec.ts): options and positional arguments, typed. The
 * command line and the `:` palette both call `parseWords`, so the same input gives the same values
 * and the same error text in both. No I/O.
 */
import type { ParseArgsConfig } from 'node:util';

// Taken when used, not imported: an ES module's `import … from 'node:util'` makes Node build the
// module's ESM facade at start, which reads every export, lazy ones too (`MIMEParams` loads its
// module): about 5 ms of `--version` and every command's start (issue #27, docs/PERFORMANCE.md).
const parseArgs: typeof import('node:util').parseArgs = (config) =>
  process.getBuiltinModule('node:util').parseArgs(config);

/** Values only the config knows, read at run time (the palette when it opens, a shell as it completes). */
export type KnownValues = 'profiles' | 'templates' | 'views' | 'commands';
/**
 * The names known now, per kind (a kind left out has none: `commands` is the app's alone; the saved
 * views only where views are kept: the palette, a shell's completion).
 */
export type RunValues = Readonly<Partial<Record<KnownValues, readonly string[]>>>;
export const NO_VALUES: RunValues = { profiles: [], templates: [], views: [], commands: [] };

/** What a value may be. */
export type ArgType =
  /** One of a list (case folded; `aliases` are other names for a value). */
  | {
      readonly kind: 'choice';
      readonly values: readonly string[];
      readonly aliases?: Readonly<Record<string, string>>;
    }
  /** A number of days from 1 to 365: `14`, `14d`, `14 days`. */
  | { readonly kind: 'days' }
  /** A whole number within bounds. */
  | { readonly kind: 'whole'; readonly min: number; readonly max: number }
  /** Names separated by commas (`--fields id,username`): completed; the command checks them. */
  | { readonly kind: 'list'; readonly values: readonly string[] }
  /** A name the config holds (a profile, a template): completed; the command judges it. */
  | { readonly kind: 'known'; readonly values: KnownValues; readonly also?: readonly string[] }
  /** One word as typed; `suggest` is offered by completion only. */
  | { readonly kind: 'word'; readonly suggest?: readonly string[] }
  /** Free text: in the palette, the rest of the line (last positional only). */
  | { readonly kind: 'text' }
  /** A sort: `FIELD[:asc|desc]`, a field named as the screens or the API name it (`expiry`, `exp_date`). */
  | {
      readonly kind: 'sort';
      readonly fields: readonly string[];
      readonly aliases: Readonly<Record<string, string>>;
      readonly suggest: readonly string[];
    };

export interface OptionSpec {
  readonly name: string;
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** The value's placeholder in help: `N`, `DATE`. */
  readonly value?: string;
  readonly help: string;
  /** A string option's value (default: one word as typed). */
  readonly arg?: ArgType;
  /** Only on the command line: the screens have their own way (the dialog confirms; no --json). */
  readonly cliOnly?: boolean;
}

export interface PositionalSpec {
  /** As usage and errors name it: `ID|USERNAME`, `DAYS`, `TEMPLATE`. */
  readonly name: string;
  readonly arg: ArgType;
  /** The option this is another way to give (`renewals 14 30` is `--within 14 --expired 30`). */
  readonly option?: string;
}

/** What `parseWords` reads a command's words against. */
export interface ArgsSpec {
  readonly name: string;
  readonly positionals: readonly PositionalSpec[];
  /** How many positionals must be given. */
  readonly required: number;
  readonly options: readonly OptionSpec[];
}

export type Values = Readonly<Record<string, string | boolean | undefined>>;
export type Front = 'cli' | 'palette';

type ParsedArgs =
  | { readonly ok: true; readonly values: Values; readonly positionals: readonly string[] }
  | { readonly ok: false; readonly message: string; readonly path: readonly string[] | null };

const fail = (message: string, path: readonly string[] | null = null): ParsedArgs => ({
  ok: false,
  message,
  path,
});

/** node's message, shortened, with the option it concerns as the path (`--foo` → ["foo"]). */
function nodeError(err: unknown): ParsedArgs {
  const msg = (err as Error).message;
  const name = (flag: string | undefined) => {
    // node writes `-s, --status <value>`: the long name alone.
    const long = flag?.split(',').pop()?.trim().split(/\s/)[0] ?? '';
    return { long, path: long ? [long.replace(/^-+/, '').replace(/=.*$/, '')] : null };
  };
  const unknown = /Unknown option '([^']+)'/.exec(msg);
  if (unknown) return fail(`unknown option ${unknown[1]}`, name(unknown[1]).path);
  const missing = /Option '([^']+)' argument missing/.exec(msg);
  if (missing) return fail(`option ${name(missing[1]).long} needs a value`, name(missing[1]).path);
  const ambiguous = /Option '([^']+)' argument is ambiguous/.exec(msg);
  if (ambiguous)
    return fail(
      `option ${name(ambiguous[1]).long} needs a value (write --name=value)`,
      name(ambiguous[1]).path,
    );
  return fail(msg.split('\n')[0] ?? msg);
}

/** "7d", "7", "14 days" → 7; null when it is not a number of days from 1 to 365. */
export function parseDays(text: string): number | null {
  const m = /^\s*(\d{1,3})\s*(d|day|days)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 365 ? n : null;
}

const aliasesOf = (t: Extract<ArgType, { kind: 'choice' }>) =>
  Object.entries(t.aliases ?? {})
    .filter(([, to]) => t.values.includes(to))
    .map(([from]) => from);

/** A value checked against its type: the value to use (an alias resolved, case folded), or why not. */
function checkValue(
  t: ArgType,
  raw: string,
  said: { readonly option: string } | { readonly command: string },
): { value: string } | { error: string } {
  const cut = raw.slice(0, 20);
  const isOption = 'option' in said;
  switch (t.kind) {
    case 'choice': {
      const v = raw.toLowerCase();
      const resolved = t.values.includes(v) ? v : t.aliases?.[v];
      if (resolved !== undefined && t.values.includes(resolved)) return { value: resolved };
      return {
        error: isOption
          ? `--${said.option} takes ${t.values.join(', ')}, not "${cut}"`
          : `${said.command}: "${raw}" is not one of ${[...t.values, ...aliasesOf(t)].join(', ')}`,
      };
    }
    case 'days':
      return parseDays(raw) !== null
        ? { value: raw }
        : {
            error: isOption
              ? `--${said.option} takes a number of days from 1 to 365 (7d)`
              : `${said.command}: days are whole numbers from 1 to 365 (${said.command} 14 30)`,
          };
    case 'whole':
      return /^\d+$/.test(raw) && Number(raw) >= t.min && Number(raw) <= t.max
        ? { value: raw }
        : {
            error: `${isOption ? `--${said.option}` : said.command} takes a whole number from ${t.min} to ${t.max}, got "${cut}"`,
          };
    case 'sort':
      return sortOf(t, raw)
        ? { value: raw }
        : {
            error: `--${isOption ? said.option : 'sort'} takes ${shownFields(t)}, then :asc or :desc (expiry:desc)`,
          };
    default:
      return { value: raw };
  }
}

/** The fields a sort is written with on screen: an alias stands for the API's name. */
const shownFields = (t: Extract<ArgType, { kind: 'sort' }>) => {
  const names = t.fields.map((f) => Object.entries(t.aliases).find(([, to]) => to === f)?.[0] ?? f);
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
};

/** `expiry:desc` → the API's field and order; null when it is not a sort of `t`. */
export function sortOf(
  t: Extract<ArgType, { kind: 'sort' }>,
  text: string,
): { readonly orderBy: string; readonly orderType: 'asc' | 'desc' } | null {
  const [field = '', order = 'asc', ...rest] = text.toLowerCase().split(':');
  const orderBy = t.aliases[field] ?? field;
  if (!t.fields.includes(orderBy) || (order !== 'asc' && order !== 'desc') || rest.length) return null;
  return { orderBy, orderType: order };
}

/**
 * Reads `words` against `spec`. `usage` is the form errors show (`linedesk renewals …` on the
 * command line, `renewals …` in the palette). On the palette an option marked `cliOnly` is refused
 * by name; a command without options there takes every word as an argument (`:search -x`).
 */
export function parseWords(
  spec: ArgsSpec,
  words: readonly string[],
  front: Front,
  usage: string,
): ParsedArgs {
  let values: Record<string, string | boolean | undefined> = {};
  let positionals: string[];
  const paletteOptions = spec.options.filter((o) => !o.cliOnly);
  if (front === 'palette' && !paletteOptions.length) positionals = [...words];
  else {
    const options = Object.fromEntries(
      spec.options.map((o) => [o.name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]),
    );
    try {
      ({ values, positionals } = parseArgs({
        args: [...words],
        options: options as NonNullable<ParseArgsConfig['options']>,
        strict: true,
        allowPositionals: true,
      }) as { values: Record<string, string | boolean | undefined>; positionals: string[] });
    } catch (err) {
      return nodeError(err);
    }
    values = { ...values };
  }
  if (values.help) return { ok: true, values, positionals };
  if (front === 'palette') {
    const cli = spec.options.find((o) => o.cliOnly && values[o.name] !== undefined);
    if (cli) return fail(`--${cli.name} is for the command line`, [cli.name]);
  }

  // Free text takes the rest of the palette's line as one argument.
  const last = spec.positionals.at(-1);
  if (front === 'palette' && last?.arg.kind === 'text' && positionals.length > spec.positionals.length)
    positionals = [
      ...positionals.slice(0, spec.positionals.length - 1),
      positionals.slice(spec.positionals.length - 1).join(' '),
    ];
  if (positionals.length > spec.positionals.length)
    return fail(`unexpected argument ${positionals[spec.positionals.length]} (usage: ${usage})`);
  if (positionals.length < spec.required)
    return fail(`${spec.positionals[positionals.length]!.name} is missing (usage: ${usage})`);

  const kept: string[] = [];
  const fromPositional = new Set<string>();
  for (const [i, raw] of positionals.entries()) {
    const p = spec.positionals[i]!;
    const checked = checkValue(p.arg, raw, { command: spec.name });
    if ('error' in checked) return fail(checked.error, [p.option ?? p.name.toLowerCase()]);
    if (p.option) {
      if (values[p.option] !== undefined)
        return fail(`give ${p.name} or --${p.option}, not both`, [p.option]);
      values[p.option] = checked.value;
      fromPositional.add(p.option);
    } else kept.push(checked.value);
  }
  for (const o of spec.options) {
    const raw = values[o.name];
    if (o.type !== 'string' || typeof raw !== 'string' || !o.arg || fromPositional.has(o.name)) continue;
    const checked = checkValue(o.arg, raw, { option: o.name });
    if ('error' in checked) return fail(checked.error, [o.name]);
    values[o.name] = checked.value;
  }
  return { ok: true, values, positionals: kept };
}

/** The values a value of this type completes to. */
export function candidatesOf(t: ArgType | undefined, values: RunValues): readonly string[] {
  if (!t) return [];
  switch (t.kind) {
    case 'choice':
      return [...t.values, ...aliasesOf(t)];
    case 'list':
      return t.values;
    case 'known':
      return [...(values[t.values] ?? []), ...(t.also ?? [])];
    case 'word':
    case 'sort':
      return t.suggest ?? [];
    default:
      return [];
  }
}

/** How a value is written in a usage line. */
export const placeholder = (p: PositionalSpec): string =>
  p.arg.kind === 'choice' ? p.arg.values.join('|') : p.arg.kind === 'text' ? `${p.name}…` : p.name;

/**
 * The commands as data: their typed arguments and options, help and examples. The command line's
 * parsing, `--help`, `linedesk --help` and the shell completions are made from this table, and so
 * are the palette's commands of the same names (palette.ts: `:lines --status expiring`,
 * `:renewals 14 30`), parsed by the one parser (args.ts). No I/O, no heavy imports: `linedesk lines
 * --help` answers before anything else loads.
 */
import { LINE_TYPES, ORDER_BY } from '../api/contract/choices';
import { STATUS_VIEWS } from '../services/status-views';
import type { ArgsSpec, ArgType, OptionSpec, PositionalSpec } from './args';

const choice = (values: readonly string[], aliases?: Readonly<Record<string, string>>): ArgType => ({
  kind: 'choice',
  values,
  ...(aliases ? { aliases } : {}),
});
const MONTHS = choice(['1', '3', '6', '12']);
const DAYS: ArgType = { kind: 'days' };
const CONNECTIONS = choice(['1', '2', '3', '4', '5', '6']);
/** The screens call the expiry column EXPIRES and its sort expiry; the API says exp_date. */
export const SORT_ALIASES: Readonly<Record<string, string>> = { expiry: 'exp_date', expires: 'exp_date' };
export const SORT: Extract<ArgType, { kind: 'sort' }> = {
  kind: 'sort',
  fields: ORDER_BY,
  aliases: SORT_ALIASES,
  suggest: ['id', 'username', 'enabled', 'expiry', 'expiry:desc', 'username:desc'],
};

export interface CommandSpec extends ArgsSpec {
  readonly name: CommandName;
  readonly summary: string;
  /** After `linedesk NAME`: `ID|USERNAME [options]`. */
  readonly usage: string;
  /** Reaches a service (target flags apply). */
  readonly service: boolean;
  /** Spends credits or changes a line: quoted, and sent only with --yes. */
  readonly mutation: boolean;
  /** Also a `:` command on the screens, with the same arguments (its options not marked cliOnly). */
  readonly palette: boolean;
  readonly examples: readonly string[];
  readonly notes?: string;
}

export const COMMAND_NAMES = [
  'account',
  'packages',
  'bouquets',
  'lines',
  'line',
  'create',
  'trial',
  'extend',
  'upgrade',
  'unsuspend',
  'delete',
  'renewals',
  'runway',
  'message',
  'journal',
  'pending',
  'completion',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export const isCommandName = (s: string | undefined): s is CommandName =>
  (COMMAND_NAMES as readonly string[]).includes(s ?? '');

/** The target flags: every command takes them, and they may come before its name (linedesk --sandbox lines). */
export const TARGET: readonly OptionSpec[] = [
  { name: 'profile', type: 'string', value: 'NAME', help: 'use the named profile', cliOnly: true },
  {
    name: 'base-url',
    type: 'string',
    value: 'URL',
    help: 'the service (key from LINEDESK_API_KEY)',
    cliOnly: true,
  },
  { name: 'sandbox', type: 'boolean', help: 'use the embedded sandbox', cliOnly: true },
  {
    name: 'read-only',
    type: 'boolean',
    help: 'browse only: a command that changes lines is refused',
    cliOnly: true,
  },
];
const JSON_OPT: OptionSpec = {
  name: 'json',
  type: 'boolean',
  help: 'one JSON document on stdout; errors as JSON on stderr',
  cliOnly: true,
};
const CSV: OptionSpec = { name: 'csv', type: 'boolean', help: 'CSV with a header row', cliOnly: true };
/** A line record's fields, in order (format.ts's LINE_FIELDS): `--fields` completes them. */
export const LINE_FIELD_NAMES = [
  'id',
  'username',
  'password',
  'label',
  'status',
  'type',
  'enabled',
  'connections',
  'is_trial',
  'exp_date',
  'start_date',
  'created_at',
  'hostname',
] as const;
const FIELDS: OptionSpec = {
  name: 'fields',
  type: 'string',
  value: 'A,B,C',
  help: 'the fields to print, in order (table, CSV and JSON)',
  arg: { kind: 'list', values: LINE_FIELD_NAMES },
  cliOnly: true,
};
/** The screens' dialogs confirm with their own key, after showing the quote. */
const YES: OptionSpec = {
  name: 'yes',
  type: 'boolean',
  short: 'y',
  help: 'send it (without: quote only)',
  cliOnly: true,
};
const STDIN: OptionSpec = {
  name: 'stdin',
  type: 'boolean',
  help: 'read ids or usernames from stdin (one per line, or separated by spaces or commas)',
  cliOnly: true,
};
/** The new line form takes these on screen. */
const CREDENTIALS: readonly OptionSpec[] = [
  {
    name: 'username',
    type: 'string',
    value: 'NAME',
    help: '12–30 of A–Z a–z 0–9 - . _ ~ (default: random)',
    cliOnly: true,
  },
  {
    name: 'password',
    type: 'string',
    value: 'TEXT',
    help: '14–30 of A–Z a–z 0–9 - . _ ~ (default: random)',
    cliOnly: true,
  },
  { name: 'label', type: 'string', value: 'TEXT', help: 'up to 30 characters', cliOnly: true },
  {
    name: 'mac',
    type: 'string',
    value: 'MAC',
    help: 'MAC address, six hex pairs (00:1A:79:12:34:56)',
    cliOnly: true,
  },
  { name: 'parental-code', type: 'string', value: 'NNNN', help: 'exactly 4 digits', cliOnly: true },
  {
    name: 'bouquets',
    type: 'string',
    value: 'ID,ID',
    help: 'bouquet ids (see: linedesk bouquets)',
    cliOnly: true,
  },
  { name: 'disabled', type: 'boolean', help: 'create it suspended', cliOnly: true },
];
const LINE: PositionalSpec = { name: 'ID|USERNAME', arg: { kind: 'word' } };

export const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = {
  account: {
    name: 'account',
    summary: 'the balance, the account and its lines counted per status and type',
    usage: '[options]',
    positionals: [],
    required: 0,
    options: [JSON_OPT],
    service: true,
    palette: true,
    mutation: false,
    examples: ['linedesk account', 'linedesk account --json | jq .credits'],
    notes:
      "The balance is compared with the one last seen for the account and what this machine's journal says it spent since: a move no entry explains (another device, a panel, a refund) is said once, with the amount (Balance drift; drift in --json). A change of this machine still open is never called drift.",
  },
  packages: {
    name: 'packages',
    summary: 'packages and their prices',
    usage: '[--type all|premium|trial] [options]',
    positionals: [],
    required: 0,
    options: [
      {
        name: 'type',
        type: 'string',
        value: 'T',
        help: 'all, premium or trial',
        arg: choice(LINE_TYPES),
        cliOnly: true,
      },
      JSON_OPT,
      CSV,
    ],
    service: true,
    palette: true,
    mutation: false,
    examples: ['linedesk packages --type premium'],
  },
  bouquets: {
    name: 'bouquets',
    summary: 'bouquets (channels and movies) with their ids',
    usage: '[options]',
    positionals: [],
    required: 0,
    options: [JSON_OPT, CSV],
    service: true,
    palette: true,
    mutation: false,
    examples: ['linedesk bouquets --csv'],
  },
  lines: {
    name: 'lines',
    summary: 'lines, filtered and sorted (every page with --all or --ndjson)',
    usage:
      '[--view NAME] [--status S] [--type T] [--search Q] [--sort FIELD[:asc|desc]] [--limit N] [--all] [options]',
    positionals: [],
    required: 0,
    options: [
      {
        name: 'view',
        type: 'string',
        value: 'NAME',
        help: 'a saved view: its filter, search and sort (the options given override them); the table takes its columns',
        arg: { kind: 'known', values: 'views' },
      },
      {
        name: 'status',
        type: 'string',
        value: 'S',
        help: 'all, active, suspended, expiring or expired',
        arg: choice(STATUS_VIEWS),
      },
      {
        name: 'type',
        type: 'string',
        value: 'T',
        help: 'all, premium or trial',
        arg: choice(LINE_TYPES),
      },
      { name: 'search', type: 'string', value: 'Q', help: 'part of a username or id, or a note' },
      {
        name: 'sort',
        type: 'string',
        value: 'FIELD',
        help: 'id, username, enabled or expiry, then :asc or :desc',
        arg: SORT,
      },
      {
        name: 'limit',
        type: 'string',
        value: 'N',
        help: 'at most N lines (default 20; --ndjson: all)',
        arg: { kind: 'whole', min: 1, max: 10_000_000 },
        cliOnly: true,
      },
      {
        name: 'all',
        type: 'boolean',
        help: 'every line, across all pages (a list that changes meanwhile: a table reads it again; --json, --ndjson and --csv stream and stop, exit 1)',
        cliOnly: true,
      },
      JSON_OPT,
      {
        name: 'ndjson',
        type: 'boolean',
        help: 'one JSON object per line, streamed across all pages',
        cliOnly: true,
      },
      CSV,
      FIELDS,
    ],
    service: true,
    palette: true,
    mutation: false,
    examples: [
      'linedesk lines --status expiring --sort expiry',
      'linedesk lines --view expiring-trials',
      'linedesk lines --ndjson | jq -r .username',
      'linedesk lines --all --csv --fields username,status,exp_date > lines.csv',
    ],
    notes:
      'Fields: id, username, password, label, status, type, enabled, connections, is_trial, exp_date,\nstart_date, created_at, hostname. The password is printed only when --fields names it.',
  },
  line: {
    name: 'line',
    summary: 'one line as the detail screen shows it: its diagnosis first, its connection links last',
    usage: 'ID|USERNAME [options]',
    positionals: [LINE],
    required: 1,
    options: [
      JSON_OPT,
      {
        name: 'show-password',
        type: 'boolean',
        help: 'print the password, and the links that hold it (hidden otherwise)',
        cliOnly: true,
      },
    ],
    service: true,
    palette: true,
    mutation: false,
    examples: ['linedesk line smith0042abcd', 'linedesk line 3f2a…-uuid --json'],
  },
  create: {
    name: 'create',
    summary: 'a new line (costs credits: quoted by the server first)',
    usage: '--months 1|3|6|12 [--connections N] [credentials…] [--yes]',
    positionals: [],
    required: 0,
    options: [
      {
        name: 'months',
        type: 'string',
        value: 'N',
        help: '1, 3, 6 or 12 (the package of that length)',
        arg: MONTHS,
        cliOnly: true,
      },
      {
        name: 'connections',
        type: 'string',
        value: 'N',
        help: '1 to 6 (default 1)',
        arg: CONNECTIONS,
        cliOnly: true,
      },
      ...CREDENTIALS,
      YES,
      JSON_OPT,
    ],
    service: true,
    palette: true,
    mutation: true,
    examples: ['linedesk create --months 1 --label "Flat 4" --yes'],
  },
  trial: {
    name: 'trial',
    summary: 'a new trial line (quoted by the server first)',
    usage: '--hours 12|24|48 [credentials…] [--yes]',
    positionals: [],
    required: 0,
    options: [
      {
        name: 'hours',
        type: 'string',
        value: 'N',
        help: '12, 24 or 48 (the trial package of that length)',
        arg: choice(['12', '24', '48']),
        cliOnly: true,
      },
      ...CREDENTIALS,
      YES,
      JSON_OPT,
    ],
    service: true,
    palette: true,
    mutation: true,
    examples: ['linedesk trial --hours 24 --yes --json'],
  },
  extend: {
    name: 'extend',
    summary: 'extend lines (costs credits: an estimate from the package prices)',
    usage: 'ID|USERNAME | --stdin [--months 1|3|6|12] [--yes]',
    positionals: [LINE],
    required: 0,
    options: [
      {
        name: 'months',
        type: 'string',
        value: 'N',
        help: '1, 3, 6 or 12 (default 1)',
        arg: MONTHS,
      },
      STDIN,
      YES,
      JSON_OPT,
    ],
    service: true,
    palette: true,
    mutation: true,
    examples: [
      'linedesk extend smith0042abcd --months 3 --yes',
      'cut -f1 due.txt | linedesk extend --stdin --yes',
    ],
  },
  upgrade: {
    name: 'upgrade',
    summary: "change lines' connections (quoted by the server first)",
    usage: 'ID|USERNAME | --stdin --connections N [--yes]',
    positionals: [LINE],
    required: 0,
    options: [
      { name: 'connections', type: 'string', value: 'N', help: '1 to 6 (required)', arg: CONNECTIONS },
      STDIN,
      YES,
      JSON_OPT,
    ],
    service: true,
    palette: true,
    mutation: true,
    examples: ['linedesk upgrade smith0042abcd --connections 2 --yes'],
  },
  unsuspend: {
    name: 'unsuspend',
    summary: 'unsuspend lines (free)',
    usage: 'ID|USERNAME | --stdin [--yes]',
    positionals: [LINE],
    required: 0,
    options: [STDIN, YES, JSON_OPT],
    service: true,
    palette: true,
    mutation: true,
    examples: ['linedesk lines --status suspended --ndjson | jq -r .id | linedesk unsuspend --stdin --yes'],
  },
  delete: {
    name: 'delete',
    summary: 'delete lines for good (free)',
    usage: 'ID|USERNAME | --stdin [--yes]',
    positionals: [LINE],
    required: 0,
    options: [STDIN, YES, JSON_OPT],
    service: true,
    palette: true,
    mutation: true,
    examples: ['linedesk delete smith0042abcd --yes'],
  },
  renewals: {
    name: 'renewals',
    summary: 'lines to renew: expiring soon, expired lately, suspended; estimated costs',
    usage: '[DAYS [DAYS]] [--within 7d] [--expired 30d] [--months N] [options]',
    positionals: [
      { name: 'DAYS', arg: DAYS, option: 'within' },
      { name: 'DAYS', arg: DAYS, option: 'expired' },
    ],
    required: 0,
    options: [
      {
        name: 'within',
        type: 'string',
        value: 'DAYS',
        help: 'expiring within this many days (default: saved, 7d)',
        arg: DAYS,
      },
      {
        name: 'expired',
        type: 'string',
        value: 'DAYS',
        help: 'expired within this many days (default: saved, 30d)',
        arg: DAYS,
      },
      {
        name: 'months',
        type: 'string',
        value: 'N',
        help: 'renewal length the costs are estimated for (default 1)',
        arg: MONTHS,
        cliOnly: true,
      },
      JSON_OPT,
      CSV,
    ],
    service: true,
    palette: true,
    mutation: false,
    examples: ['linedesk renewals --within 3d', 'linedesk renewals --json | jq -r ".rows[].username"'],
  },
  runway: {
    name: 'runway',
    summary: 'how many days the balance renews every line coming due; exit 7 when it falls short',
    usage: '[DAYS] [--days N] [--json]',
    positionals: [{ name: 'DAYS', arg: DAYS, option: 'days' }],
    required: 0,
    options: [
      {
        name: 'days',
        type: 'string',
        value: 'N',
        help: 'the window: lines expiring within N days (default 30)',
        arg: DAYS,
      },
      JSON_OPT,
    ],
    service: true,
    palette: true,
    mutation: false,
    examples: [
      'linedesk runway',
      'linedesk runway --days 14 || mail -s "linedesk: top up" me@example.com',
      'linedesk runway --json | jq .coveredDays',
    ],
    notes:
      "Each line expiring within the window is renewed for one month, soonest first, at the app's estimate from the package prices (extend has no server quote), needing its cost and never less than the package's min_balance. The balance covers up to the day the first line it cannot renew expires. Trials cannot be extended and suspended lines serve no one: both are listed apart, not counted. Exit 0 when the balance covers the window, 7 when it does not.",
  },
  message: {
    name: 'message',
    summary: "a customer message from a template, filled with a line's details",
    usage: 'TEMPLATE ID|USERNAME | --list',
    positionals: [{ name: 'TEMPLATE', arg: { kind: 'known', values: 'templates' } }, LINE],
    required: 0,
    options: [{ name: 'list', type: 'boolean', help: 'list the templates', cliOnly: true }, JSON_OPT],
    service: true,
    palette: true,
    mutation: false,
    examples: ['linedesk message reminder smith0042abcd', 'linedesk message --list'],
    notes: 'Templates: the defaults (details, reminder, renewed) and the config\'s "templates".',
  },
  journal: {
    name: 'journal',
    summary:
      "the journal of changes made from this machine: one account's, one entry per operation, with totals",
    usage: '[--since DAY] [--until DAY] [--all-accounts] [options]',
    positionals: [],
    required: 0,
    options: [
      {
        name: 'since',
        type: 'string',
        value: 'DAY',
        help: 'from this day on: today, yesterday, 2026-11-01 (local days), or a time (2026-11-01T08:00:00Z)',
        cliOnly: true,
      },
      {
        name: 'until',
        type: 'string',
        value: 'DAY',
        help: 'up to this day, included (today, yesterday, 2026-11-30), or before this time',
        cliOnly: true,
      },
      {
        name: 'all-accounts',
        type: 'boolean',
        help: 'every account and service, not only the chosen one',
        cliOnly: true,
      },
      JSON_OPT,
      CSV,
      ...TARGET.filter((o) => o.name !== 'read-only'),
    ],
    service: false,
    palette: true,
    mutation: false,
    examples: [
      'linedesk journal --since yesterday --until yesterday',
      'linedesk --profile shopB journal --since 2026-11-01 --csv > november.csv',
      'linedesk journal --all-accounts --since today --json',
    ],
    notes:
      "Days are this machine's local days. Shows the account the target flags choose (as every command does: --profile, LINEDESK_PROFILE, the default profile, else the sandbox); entries of other accounts are counted, not shown. Totals count what was applied and the credits charged; refused, not sent and unknown operations are counted apart, never as done.",
  },
  pending: {
    name: 'pending',
    summary: 'changes whose outcome is still open: checked again; settled by hand',
    usage:
      '[--wait] | --settle ID|USERNAME --as applied|not-applied --confirm USERNAME | --set-aside FILE --yes',
    positionals: [],
    required: 0,
    options: [
      { name: 'wait', type: 'boolean', help: 'keep checking until every hold window has passed' },
      { name: 'settle', type: 'string', value: 'ID|USERNAME', help: 'settle this open line by hand' },
      {
        name: 'as',
        type: 'string',
        value: 'OUTCOME',
        help: 'what you know happened (you looked on the panel)',
        arg: choice(['applied', 'not-applied']),
      },
      { name: 'confirm', type: 'string', value: 'USERNAME', help: "the line's username, typed again" },
      {
        name: 'set-aside',
        type: 'string',
        value: 'FILE',
        help: 'set a damaged intent file aside (kept, no longer read)',
      },
      YES,
      JSON_OPT,
    ],
    service: true,
    palette: false,
    mutation: false,
    examples: [
      'linedesk pending',
      'linedesk extend smith0042abcd --yes || linedesk pending --wait',
      'linedesk pending --settle smith0042abcd --as not-applied --confirm smith0042abcd',
    ],
    notes:
      'Exit 0 when nothing is open, 3 while something is (unknown, held, or a damaged intent file), or while a part of the intent log cannot be read (named, with its path; the open changes it could read are still checked). A check that sees no change proves only "not yet": an outcome stays open for the hold window (10 minutes; the config\'s "holdMinutes") after its request left. --wait stops checking a job another linedesk ended or set aside meanwhile, and says so; one set aside with its outcome still unknown is listed as set aside (exit 3: setting a file aside proves nothing). A settle exits 3 too when a part of the intent log cannot be read (named).',
  },
  completion: {
    name: 'completion',
    summary: 'a shell completion script',
    usage: 'bash|zsh|fish',
    positionals: [{ name: 'SHELL', arg: choice(['bash', 'zsh', 'fish']) }],
    required: 1,
    options: [],
    service: false,
    palette: false,
    mutation: false,
    examples: ['linedesk completion bash > ~/.local/share/bash-completion/completions/linedesk'],
  },
};

/** Every option a command accepts: its own, the target flags when it reaches a service, --help. */
export function optionsOf(spec: CommandSpec): readonly OptionSpec[] {
  return [
    ...spec.options,
    ...(spec.service ? TARGET : []),
    { name: 'help', type: 'boolean', short: 'h', help: 'show this help' },
  ];
}

export const EXIT_CODES_HELP = `Exit codes:
  0  done
  1  failed or refused by the server (nothing charged for what failed), or a read that could
     not finish (list_changed: the list changed while reading; run again)
  2  usage: a bad option or value (the field is named), or a service refused before
     connecting (plain http to a name that resolves off this machine); nothing was sent
  3  outcome unknown: checked with the server, not proven; still open in the intent log
  4  not confirmed: the quote was printed; run again with --yes to send it
  5  cannot reach the service
  6  partly done: some lines applied (and charged), others failed or were refused or not found;
     re-run only those (listed), never the whole input
  7  runway: the balance does not cover the renewals of the window (the lines that would lapse
     first are listed)`;

export function commandHelp(spec: CommandSpec): string {
  const opts = optionsOf(spec);
  const left = (o: OptionSpec) =>
    `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.value ? ` ${o.value}` : ''}`;
  const width = Math.max(...opts.map((o) => left(o).length)) + 2;
  return [
    `linedesk ${spec.name} — ${spec.summary}`,
    '',
    'Usage:',
    `  linedesk ${spec.name} ${spec.usage}`,
    '',
    'Options:',
    ...opts.map((o) => `  ${left(o).padEnd(width)}${o.help}`),
    ...(spec.notes ? ['', spec.notes] : []),
    ...(spec.mutation
      ? [
          '',
          "Without --yes the change is quoted (the server's quote, or an estimate labelled so) and nothing",
          'is sent (exit 4). With --yes it is sent once; an unclear answer is checked with the server and',
          'never re-sent. Open changes left by an earlier run are checked first.',
        ]
      : []),
    '',
    'Examples:',
    ...spec.examples.map((e) => `  ${e}`),
    '',
    EXIT_CODES_HELP,
    '',
  ].join('\n');
}

/** The subcommands' lines of `linedesk --help`. */
export function commandsHelp(): string {
  const width = Math.max(...COMMAND_NAMES.map((n) => n.length)) + 2;
  return COMMAND_NAMES.map((n) => `  linedesk ${n.padEnd(width)}${COMMANDS[n].summary}`).join('\n');
}

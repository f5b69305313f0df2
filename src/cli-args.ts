import { type OptionSpec, parseWords } from './commands/args';
import { commandsHelp, EXIT_CODES_HELP, isCommandName, TARGET } from './commands/spec';
import type { SandboxCommandOptions } from './sandbox/command';
import { parseFaults } from './sandbox/faults';

/** What the command line asks for. Pure: no I/O, so every rule is tested without a process. */
type CliCommand =
  | { readonly kind: 'help'; readonly topic: 'app' | 'sandbox' }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'app'; readonly options: AppOptions }
  /** A subcommand without a screen (headless/): parsed there, from argv[0] on. */
  | { readonly kind: 'headless'; readonly argv: readonly string[] }
  | { readonly kind: 'sandbox'; readonly options: SandboxCommandOptions }
  /** `linedesk __complete profiles|templates`: names for the shell completions (hidden). */
  | { readonly kind: 'complete'; readonly what: string };

export interface AppOptions {
  readonly sandbox: boolean;
  readonly readOnly: boolean;
  /** Draw in ASCII whatever the locale says (`--ascii`). */
  readonly ascii: boolean;
  /** The screen-reader mode (`--screen-reader`; also INK_SCREEN_READER=true or the setting). */
  readonly screenReader: boolean;
  readonly baseUrl: string | null;
  readonly profile: string | null;
}

export const APP_HELP = `linedesk — manage subscription lines from the keyboard

Usage:
  linedesk [options]            open the app
  linedesk COMMAND [options]    run one command without a screen (see: linedesk COMMAND --help);
                                the target flags below may also come first: linedesk --sandbox lines
  linedesk sandbox [options]    run the embedded sandbox service on its own (see: linedesk sandbox --help)

Commands (scripts and cron; data on stdout, messages on stderr; --json on every one):
${commandsHelp()}

Options:
  --sandbox          use the embedded sandbox even when a service is configured
  --profile NAME     use the named profile (a base URL and an API key from the config)
  --base-url URL     the service's base URL (https; plain http only for loopback); the key comes
                     from LINEDESK_API_KEY, or from the profile with that URL
  --read-only        browse only: every command that changes a line is disabled
  --ascii            draw in ASCII only (chosen by itself when LC_ALL, LC_CTYPE or LANG is not UTF-8)
  --screen-reader    for a screen reader: no boxes, glyphs or redrawn progress; each row one
                     sentence, the cursor on the selected row (also INK_SCREEN_READER=true, or
                     "screenReader": true in the config)
  -h, --help         show this help
  -v, --version      print the version

Environment:
  LINEDESK_PROFILE     the profile to use (below --profile and --base-url)
  LINEDESK_BASE_URL    the service's base URL (with LINEDESK_API_KEY)
  LINEDESK_API_KEY     the API key; never shown (only its last four characters), logged or written
  LINEDESK_CONFIG_DIR  where profiles live (default: ~/.config/linedesk; config.json, mode 0600)
  LINEDESK_DATA_DIR    sandbox database, journal, bulk jobs, exports (default: ~/.local/share/linedesk)
  LINEDESK_STATE_DIR   the log file (default: ~/.local/state/linedesk)
  NO_COLOR             any value turns colour off (status is always spelled in words)
  INK_SCREEN_READER    true turns the screen-reader mode on (as --screen-reader)

Which service: flags (--sandbox, --profile, --base-url), then the environment (LINEDESK_PROFILE,
LINEDESK_BASE_URL), then the default profile, then the embedded sandbox: a local copy of the whole
interface on SQLite with demo data, where nothing real is charged. The first start with nothing
configured asks: try the sandbox, or connect an account (checked before it is saved).

Examples:
  linedesk
  linedesk --profile shop2 --read-only
  LINEDESK_BASE_URL=https://panel.example.com LINEDESK_API_KEY=… linedesk
  linedesk lines --status expiring --json
  linedesk extend smith0042abcd --months 3 --yes
  linedesk sandbox --port 7411 --lines 1000

${EXIT_CODES_HELP.replace('Exit codes:', 'Exit codes of the commands:')}
`;

export const SANDBOX_HELP = `linedesk sandbox — the whole reseller interface on SQLite, for rehearsal and tests

Usage:
  linedesk sandbox [options]

Options:
  --host HOST          address to listen on (default 127.0.0.1)
  --port N             port (default 7411; 0 picks a free one)
  --db PATH|:memory:   database file (default: linedesk's data directory)
  --lines N            lines of the demo account of a new database (default 240)
  --credits N          opening credits of the demo account of a new database (default 1000)
  --rate-limit N       N requests per second per key sustained, bursts of 2N; 0 = off (default 0)
  --faults SPEC        inject faults, e.g. latency=20-80,error500=0.1,resetAfter=0.2,seed=7
                       (latency, error500, error429, resetBefore, resetAfter, malformed, seed)
  --json               print one JSON line {baseUrl, accounts} once listening; logs go to stderr
  -h, --help           show this help
`;

function wholeNumber(
  name: string,
  value: string | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max)
    throw new Error(`${name} takes a whole number from 0 to ${max}, got "${value}"`);
  return Number(value);
}

/** The app's target flags, which may also come before a command's name: `linedesk --sandbox lines`. */
const GLOBAL_FLAGS = new Set(TARGET.filter((o) => o.type === 'boolean').map((o) => `--${o.name}`));
const GLOBAL_VALUED = new Set(TARGET.filter((o) => o.type === 'string').map((o) => `--${o.name}`));

/** The app's own options: the target flags, and these. */
const APP_OPTIONS: readonly OptionSpec[] = [
  ...TARGET,
  { name: 'ascii', type: 'boolean', help: 'draw in ASCII only' },
  { name: 'screen-reader', type: 'boolean', help: 'the screen-reader mode' },
  { name: 'help', type: 'boolean', short: 'h', help: 'show this help' },
  { name: 'version', type: 'boolean', short: 'v', help: 'print the version' },
];

/** `--sandbox --profile x lines …` → `lines … --sandbox --profile x`; null when no command follows. */
function commandAfterFlags(argv: readonly string[]): readonly string[] | null {
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (GLOBAL_FLAGS.has(a) || (GLOBAL_VALUED.has(a.split('=')[0]!) && a.includes('='))) i += 1;
    else if (GLOBAL_VALUED.has(a) && i + 1 < argv.length) i += 2;
    else break;
  }
  if (i === 0 || !isCommandName(argv[i])) return null;
  return [argv[i]!, ...argv.slice(i + 1), ...argv.slice(0, i)];
}

export function parseCli(argv: readonly string[]): CliCommand {
  try {
    if (argv[0] === 'sandbox') return parseSandbox(argv.slice(1));
    if (argv[0] === '__complete') return { kind: 'complete', what: argv[1] ?? '' };
    if (isCommandName(argv[0])) return { kind: 'headless', argv };
    const moved = commandAfterFlags(argv);
    if (moved) return { kind: 'headless', argv: moved };
    // The one parser the commands and the palette use (commands/args.ts).
    const parsed = parseWords(
      { name: 'linedesk', positionals: [], required: 0, options: APP_OPTIONS },
      argv,
      'cli',
      'linedesk [options]',
    );
    if (!parsed.ok) return { kind: 'error', message: parsed.message };
    const values = parsed.values as {
      readonly [K in 'help' | 'version' | 'sandbox' | 'read-only' | 'ascii' | 'screen-reader']?: boolean;
    } & { readonly [K in 'base-url' | 'profile']?: string };
    if (values.help) return { kind: 'help', topic: 'app' };
    if (values.version) return { kind: 'version' };
    const targets = [
      values.sandbox && '--sandbox',
      values['base-url'] !== undefined && '--base-url',
      values.profile !== undefined && '--profile',
    ].filter(Boolean);
    if (targets.length > 1)
      return { kind: 'error', message: `${targets.join(' and ')} cannot be used together` };
    if (values.profile !== undefined && !/^[A-Za-z0-9._-]{1,32}$/.test(values.profile)) {
      return {
        kind: 'error',
        message: `--profile: "${values.profile.slice(0, 40)}" is not a profile name (letters, digits, . _ -; at most 32)`,
      };
    }
    if (values['base-url'] !== undefined && values['base-url'].trim() === '') {
      return { kind: 'error', message: '--base-url needs a URL' };
    }
    return {
      kind: 'app',
      options: {
        sandbox: values.sandbox ?? false,
        readOnly: values['read-only'] ?? false,
        ascii: values.ascii ?? false,
        screenReader: values['screen-reader'] ?? false,
        baseUrl: values['base-url'] ?? null,
        profile: values.profile ?? null,
      },
    };
  } catch (err) {
    return { kind: 'error', message: (err as Error).message };
  }
}

const valued = (name: string): OptionSpec => ({ name, type: 'string', help: '' });
const SANDBOX_OPTIONS: readonly OptionSpec[] = [
  { name: 'help', type: 'boolean', short: 'h', help: '' },
  ...['host', 'port', 'db', 'lines', 'credits', 'rate-limit', 'faults'].map(valued),
  { name: 'json', type: 'boolean', help: '' },
];

function parseSandbox(argv: readonly string[]): CliCommand {
  const parsed = parseWords(
    { name: 'sandbox', positionals: [], required: 0, options: SANDBOX_OPTIONS },
    argv,
    'cli',
    'linedesk sandbox [options]',
  );
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const values = parsed.values as { readonly help?: boolean; readonly json?: boolean } & {
    readonly [K in 'host' | 'port' | 'db' | 'lines' | 'credits' | 'rate-limit' | 'faults']?: string;
  };
  if (values.help) return { kind: 'help', topic: 'sandbox' };
  try {
    return {
      kind: 'sandbox',
      options: {
        host: values.host ?? '127.0.0.1',
        port: wholeNumber('--port', values.port, 7411, 65535),
        db: values.db ?? null,
        lines: wholeNumber('--lines', values.lines, 240, 1_000_000),
        credits: wholeNumber('--credits', values.credits, 1000),
        rateLimit: wholeNumber('--rate-limit', values['rate-limit'], 0, 100_000),
        faults: values.faults === undefined ? null : parseFaults(values.faults),
        json: values.json ?? false,
      },
    };
  } catch (err) {
    return { kind: 'error', message: (err as Error).message.replace(/^--faults: /, '--faults: ') };
  }
}

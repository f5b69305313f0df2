/**
 * The config's own keys and commands, read entry by entry (docs/CONFIG.md, "Your keys and your own
 * commands"): a bad entry is named and left out, the rest is used; nothing here is fatal. Only the
 * shape is checked here; the key names and the commands they name are the command registry's to
 * judge (commands/user-keys.ts), which knows the table.
 */

/** Where a command of yours works: the line under the cursor (or the detail's), or the marked lines. */
type UserScope = 'line' | 'marks';

export interface UserCommand {
  /** `:run NAME`; also the command's id (`user.NAME`). */
  readonly name: string;
  /** One key, in the keymap's spelling (checked against the table when the keys are applied). */
  readonly key: string | null;
  readonly scope: UserScope;
  /** Help's and the palette's label. */
  readonly label: string;
  /** An absolute path (a leading `~/` is the home directory), or a bare name looked up on PATH. */
  readonly program: string;
  /** Literal arguments, each one argv element as written: never parsed by a shell, no placeholders. */
  readonly args: readonly string[];
  /** Asks before running: the pager names the command and its lines, Enter runs, Esc does not. */
  readonly confirm: boolean;
  readonly timeoutMs: number;
}

/** A command of yours in the command table: `user.NAME`. */
export const USER_PREFIX = 'user.';
export const userCommandId = (name: string) => `${USER_PREFIX}${name}`;

const USER_COMMAND_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const DEFAULT_TIMEOUT_S = 30;
const MAX_TIMEOUT_S = 600;

/** The config's `keys`: command id → the keys that replace its own (one key or a list). */
export function parseKeyEntries(
  raw: unknown,
  where: string,
): { readonly keys: ReadonlyMap<string, readonly string[]>; readonly problems: string[] } {
  const keys = new Map<string, readonly string[]>();
  const problems: string[] = [];
  if (raw === undefined) return { keys, problems };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`${where}keys: expected an object of command id → key or keys; no key is remapped`);
    return { keys, problems };
  }
  for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || list.some((k) => typeof k !== 'string')) {
      problems.push(`${where}keys.${id}: expected a key or a list of keys; left out`);
      continue;
    }
    if (!list.length) {
      problems.push(`${where}keys.${id}: a command needs at least one key; left out`);
      continue;
    }
    keys.set(id, [...new Set(list as string[])]);
  }
  return { keys, problems };
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** One entry of the config's `commands`, or the sentence saying why it is left out. */
function parseCommand(raw: unknown): UserCommand | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'expected an object';
  const o = raw as Record<string, unknown>;
  if (typeof o.name !== 'string' || !USER_COMMAND_NAME.test(o.name))
    return 'name: lower-case letters, digits, - and _ (up to 32), starting with a letter or digit';
  if (o.key !== undefined && o.key !== null && !isText(o.key)) return 'key: expected a key name';
  if (o.scope !== 'line' && o.scope !== 'marks') return 'scope: expected "line" or "marks"';
  if (!isText(o.program) || o.program.includes('\0')) return 'program: expected a path or a program name';
  const program = o.program;
  if (program.includes('/') && !program.startsWith('/') && !program.startsWith('~/'))
    return 'program: a relative path depends on where linedesk was started: give an absolute path or a name on PATH';
  const args = o.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string' || a.includes('\0')))
    return 'args: expected a list of strings';
  if (o.label !== undefined && (!isText(o.label) || /[\u0000-\u001f\u007f-\u009f]/.test(o.label)))
    return 'label: expected one line of text';
  if (o.confirm !== undefined && typeof o.confirm !== 'boolean') return 'confirm: expected true or false';
  const t = o.timeoutSeconds ?? DEFAULT_TIMEOUT_S;
  if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > MAX_TIMEOUT_S)
    return `timeoutSeconds: expected a whole number from 1 to ${MAX_TIMEOUT_S}`;
  return {
    name: o.name,
    key: typeof o.key === 'string' ? o.key : null,
    scope: o.scope,
    label: typeof o.label === 'string' ? o.label : `Run ${o.name}`,
    program,
    args: args as string[],
    confirm: o.confirm === true,
    timeoutMs: t * 1000,
  };
}

/** The config's `commands`: each entry alone; a bad one (or a name used twice) is named and left out. */
export function parseUserCommands(
  raw: unknown,
  where: string,
): { readonly commands: UserCommand[]; readonly problems: string[] } {
  const commands: UserCommand[] = [];
  const problems: string[] = [];
  if (raw === undefined) return { commands, problems };
  if (!Array.isArray(raw)) {
    problems.push(`${where}commands: expected a list; no command of yours is used`);
    return { commands, problems };
  }
  raw.forEach((entry, i) => {
    const c = parseCommand(entry);
    const named =
      entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string'
        ? ` (${JSON.stringify((entry as { name: string }).name).slice(0, 40)})`
        : '';
    if (typeof c === 'string') problems.push(`${where}commands[${i}]${named}: ${c}; left out`);
    else if (commands.some((x) => x.name === c.name))
      problems.push(`${where}commands[${i}]${named}: a second command of that name; left out`);
    else commands.push(c);
  });
  return { commands, problems };
}

/** One run of a program: argv as given (no shell), the environment it gets, its limits. */
export interface ProgramRun {
  readonly program: string;
  readonly args: readonly string[];
  /** Added to linedesk's own environment (the API key's variable is never passed on). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Stops the program (Esc on its output). */
  readonly signal?: AbortSignal;
}

/** What a run left: its output (stdout and stderr as they came, bounded, safe to show) and its end. */
export interface ProgramResult {
  readonly output: string;
  /** The exit code; null when it ended by a signal or never started. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly stopped: boolean;
  /** The output went past the bound: the rest was read and dropped. */
  readonly cut: boolean;
  /** It could not start (not found, not executable), in one sentence. */
  readonly error: string | null;
}

export type RunProgram = (run: ProgramRun) => Promise<ProgramResult>;

/** How a run ended, in words: "exit 0", "exit 3", "stopped after 30 s (timeout)", "not started: …". */
export function endText(r: ProgramResult, timeoutMs: number): string {
  if (r.error) return `not started: ${r.error}`;
  if (r.timedOut)
    return `stopped after ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`} (its timeout)`;
  if (r.stopped) return 'stopped (its output was closed)';
  if (r.exitCode !== null) return `exit ${r.exitCode}`;
  return `ended by ${r.signal ?? 'a signal'}`;
}

import { type DirRole, homeProblems } from '../app/home-dirs';
import type { CommandName } from '../commands/spec';
import { parseHeadless } from './args';
import { EXIT, failureOf } from './failure';
import { type HeadlessIo, Output } from './output';

type Command = (ctx: import('./session').Ctx) => Promise<number>;

/** Each command's module loads only when it runs: `--help` and `completion` stay light. */
const COMMAND_MODULES: Record<CommandName, () => Promise<Command>> = {
  account: async () => (await import('./commands/read')).accountCommand,
  packages: async () => (await import('./commands/read')).packagesCommand,
  bouquets: async () => (await import('./commands/read')).bouquetsCommand,
  line: async () => (await import('./commands/read')).lineCommand,
  lines: async () => (await import('./commands/lines')).linesCommand,
  create: async () => (await import('./commands/change')).changeCommand,
  trial: async () => (await import('./commands/change')).changeCommand,
  extend: async () => (await import('./commands/change')).changeCommand,
  upgrade: async () => (await import('./commands/change')).changeCommand,
  unsuspend: async () => (await import('./commands/change')).changeCommand,
  delete: async () => (await import('./commands/change')).changeCommand,
  renewals: async () => (await import('./commands/renewals')).renewalsCommand,
  runway: async () => (await import('./commands/runway')).runwayCommand,
  message: async () => (await import('./commands/message')).messageCommand,
  journal: async () => (await import('./commands/local')).journalCommand,
  pending: async () => (await import('./commands/pending')).pendingCommand,
  completion: async () => (await import('./commands/local')).completionCommand,
};

/** The directories each command reads or writes (the log is optional: without it nothing is logged). */
const LOCAL_STATE: Partial<Record<CommandName, readonly DirRole[]>> = {
  journal: ['config', 'data'],
  completion: [],
};
const needs = (command: CommandName): readonly DirRole[] => LOCAL_STATE[command] ?? ['config', 'data'];

/**
 * `linedesk COMMAND …` without a screen: parses, runs, and returns the exit code. Everything it
 * touches comes through `io` (streams, stdin, environment), so tests run it in-process. `didWork` is
 * called once a command has done its work and succeeded (not for help or a usage error).
 */
export async function runHeadless(
  argv: readonly string[],
  io: HeadlessIo,
  didWork: () => void = () => {},
): Promise<number> {
  const parsed = parseHeadless(argv);
  // Before the options are known, --json anywhere asks for JSON errors.
  const out = new Output(io, {
    json:
      parsed.kind === 'run'
        ? parsed.format === 'json' || parsed.format === 'ndjson'
        : argv.includes('--json'),
  });
  if (parsed.kind === 'help') {
    await out.data(parsed.text);
    return EXIT.done;
  }
  if (parsed.kind === 'usage') {
    out.fail({ code: 'usage', message: parsed.message, path: parsed.path, exit: EXIT.usage });
    return EXIT.usage;
  }
  // A directory linedesk cannot use is said first, path and fix, before anything reads or writes
  // there: never an "Unexpected error … mkdir", never the sandbox in silence for a config it cannot read.
  const problems = homeProblems(io.env, needs(parsed.command));
  if (problems.length) {
    out.fail({ code: 'config', message: problems.join(' '), path: null, exit: EXIT.usage });
    return EXIT.usage;
  }
  try {
    const { makeCtx } = await import('./session');
    const command = await COMMAND_MODULES[parsed.command]();
    const code = await command(makeCtx(parsed, out, io));
    if (code === EXIT.done) didWork();
    return code;
  } catch (err) {
    const f = failureOf(err);
    out.fail(f);
    return f.exit;
  }
}

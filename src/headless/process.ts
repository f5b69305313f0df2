import { COMMANDS, isCommandName } from '../commands/spec';
import { EXIT } from './failure';
import { runHeadless } from './run';

/**
 * What a command that never finished exits with: the event loop emptied (a timer that did not hold
 * it, a promise nobody settles) before its work ended. A change may have been sent: 3, never 0.
 */
function stoppedEarly(argv: readonly string[]): { readonly exit: number; readonly text: string } {
  const name = argv[0];
  const change = isCommandName(name) && COMMANDS[name].mutation;
  const exit = change ? EXIT.unknown : EXIT.failed;
  const message = `stopped before its work ended${
    change
      ? ': whether the change was applied is not known; the intent log keeps it and the next change command or the app checks it (nothing is re-sent)'
      : ''
  }`;
  const json = argv.includes('--json') || argv.includes('--ndjson');
  return {
    exit,
    text: json
      ? `${JSON.stringify({ error: { code: 'stopped', message, path: null, exit } })}\n`
      : `linedesk: ${message}.\n`,
  };
}

/**
 * A headless command in this process: its streams, stdin and environment. A signal stops scheduling
 * (nothing new is sent), lets requests in flight answer for a bounded time so their outcomes reach
 * the intent log and the journal, then exits; a second signal exits at once.
 */
export async function runHeadlessProcess(
  argv: readonly string[],
  saveCache: (() => void) | null = null,
  runner: typeof runHeadless = runHeadless,
): Promise<number> {
  // The first signal's exit code: a run that settles before the stop's exit still ends with it, so
  // nothing after (the code cache's save after a 0) takes a stopped run for a finished one.
  let stopped: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143;
    if (stopped !== null) process.exit(code);
    stopped = code;
    void import('./session').then((s) => s.stopCommand()).finally(() => process.exit(code));
  };
  // Node would end the process with 0 and no word when nothing holds the event loop any more;
  // 'beforeExit' is emitted then, and only then, while the command is still unsettled.
  const onEmpty = () => {
    const s = stoppedEarly(argv);
    process.stderr.write(s.text);
    process.exit(s.exit);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  process.on('beforeExit', onEmpty);
  try {
    const code = await runner(
      argv,
      {
        stdout: process.stdout,
        stderr: process.stderr,
        // Taken when read (only --stdin reads it): Node makes process.stdin on first access, a file
        // stream for a file such as /dev/null (cron), a socket for a pipe, a tty stream for a terminal.
        get stdin() {
          return process.stdin;
        },
        env: process.env,
      },
      // The code cache (handed by its loader, scripts/cached-script.mjs) is made once and then taken
      // as it is: only after the command's own work, never after help, a usage error, a failure or a
      // signal, which would make it hold that path's functions instead.
      () => {
        if (stopped === null) saveCache?.();
      },
    );
    return stopped ?? code;
  } finally {
    process.off('beforeExit', onEmpty);
    for (const s of signals) process.off(s, onSignal);
  }
}

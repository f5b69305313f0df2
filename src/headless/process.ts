import { runHeadless } from './run';

/**
 * A headless command in this process: its streams, stdin and environment. A signal stops scheduling
 * (nothing new is sent), lets requests in flight answer for a bounded time so their outcomes reach
 * the intent log and the journal, then exits; a second signal exits at once.
 */
export async function runHeadlessProcess(argv: readonly string[]): Promise<number> {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143;
    if (stopping) process.exit(code);
    stopping = true;
    void import('./session').then((s) => s.stopCommand()).finally(() => process.exit(code));
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  try {
    return await runHeadless(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      env: process.env,
    });
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}

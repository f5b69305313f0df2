import { setFlagsFromString } from 'node:v8';
import { APP_HELP, parseCli, SANDBOX_HELP } from './cli-args';
import { VERSION } from './version';

/** Entry point: --help, --version and argument errors answer before anything heavy is loaded. */
async function main(argv: readonly string[]): Promise<number> {
  const cmd = parseCli(argv);
  switch (cmd.kind) {
    case 'help':
      process.stdout.write(cmd.topic === 'sandbox' ? SANDBOX_HELP : APP_HELP);
      return 0;
    case 'version':
      process.stdout.write(`linedesk ${VERSION}\n`);
      return 0;
    case 'error':
      process.stderr.write(`linedesk: ${cmd.message}\nTry 'linedesk --help'.\n`);
      return 2;
    case 'sandbox':
      return (await import('./sandbox/command')).runSandboxCommand(cmd.options);
    case 'app':
      // A terminal app holds little and mostly waits: V8's size-over-speed heuristics keep its
      // resident memory near what it uses (measured: ~110 MB instead of ~190–260 MB after 1,000
      // page turns) at no cost to keypress latency (docs/PERFORMANCE.md).
      setFlagsFromString('--optimize-for-size');
      return (await import('./app/run')).runApp(cmd.options);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`linedesk: ${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 1;
  },
);

import { APP_HELP, parseCli, SANDBOX_HELP } from './cli-args';
import { VERSION } from './version';

/**
 * Entry point: --help, --version and argument errors answer before anything heavy is loaded. Each
 * `import()` here loads one file of the build (scripts/app-bundle.mjs), handed only plain data.
 */
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
    case 'headless':
      return (await import('./headless/process')).runHeadlessProcess(cmd.argv);
    case 'complete': {
      const names = (await import('./headless/complete-values')).completeValues(cmd.what);
      process.stdout.write(names.map((n) => `${n}\n`).join(''));
      return 0;
    }
    case 'sandbox':
      return (await import('./sandbox/command')).runSandboxCommand(cmd.options);
    case 'app':
      return (await import('./app/run')).runApp(cmd.options);
  }
}

/** The process never outlives its work: whatever still holds the event loop gets a moment, then goes. */
const leave = (code: number) => {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 1_000).unref();
};

main(process.argv.slice(2)).then(leave, (err: unknown) => {
  process.stderr.write(`linedesk: ${(err as Error)?.message ?? String(err)}\n`);
  leave(1);
});

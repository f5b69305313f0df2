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
      // The app holds ~40 MB and mostly waits, but V8 lets its heap grow well past that between full
      // collections. Node 24's V8 dropped --heap-growing-percent (the flag Node 20 was tuned with);
      // measured after 1,000 page turns: 140 MB as is, 151 with a 1 MB semi-space, 172 with a
      // single-threaded GC, 113 with --optimize-for-size, cursor moves within budget
      // (docs/PERFORMANCE.md). The young generation stays at its starting size.
      (await import('node:v8')).setFlagsFromString('--optimize-for-size --semi-space-growth-factor=1');
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

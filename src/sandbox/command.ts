import { join } from 'node:path';
import { dataDir } from '../paths';
import type { FaultSpec } from './faults';
import { SandboxUnavailableError, startSandbox } from './index';

/** `linedesk sandbox`: serve until SIGINT/SIGTERM. Returns the exit code. */
/** `linedesk sandbox`'s options, as cli-args.ts reads them. */
export interface SandboxCommandOptions {
  readonly host: string;
  readonly port: number;
  readonly db: string | null;
  readonly lines: number;
  readonly credits: number;
  readonly rateLimit: number;
  readonly faults: FaultSpec | null;
  readonly json: boolean;
}

export async function runSandboxCommand(o: SandboxCommandOptions): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      db: o.db ?? join(dataDir(), 'sandbox.sqlite'),
      host: o.host,
      port: o.port,
      lines: o.lines,
      credits: o.credits,
      rateLimit: o.rateLimit,
      ...(o.faults ? { faults: o.faults } : {}),
      log,
    });
  } catch (err) {
    if (err instanceof SandboxUnavailableError) log(`linedesk: ${err.message}`);
    else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      log(`linedesk: port ${o.port} is in use; try --port 0`);
    else log(`linedesk: the sandbox could not start: ${(err as Error).message}`);
    return 1;
  }
  // Listen for the stop signals before saying we are up: whoever reads the banner may stop us at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const accounts = sandbox.accounts();
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, accounts })}\n`);
  } else {
    const demo = accounts[0]!;
    process.stdout.write(
      [
        `linedesk sandbox listening on ${sandbox.baseUrl}`,
        `  demo account: ${demo.email}, ${demo.credits} credits`,
        `  demo API key: ${demo.apiKey}`,
        '',
        'Point the app at it from another terminal:',
        `  LINEDESK_BASE_URL=${sandbox.baseUrl} LINEDESK_API_KEY=${demo.apiKey} linedesk`,
        'Ctrl-C stops it.',
        '',
      ].join('\n'),
    );
  }
  await stopped;
  await sandbox.close();
  return 0;
}

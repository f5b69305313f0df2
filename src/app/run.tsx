import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { render } from 'ink';
import { type ApiClient, createClient } from '../api/client';
import { LinedeskError } from '../api/errors';
import type { AppOptions } from '../cli-args';
import { dataDir, stateDir } from '../paths';
import { createAppStore } from '../store/app-store';
import type { Target } from '../store/types';
import { App } from '../ui/App';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { StoreProvider } from '../ui/store-context';
import { VERSION } from '../version';
import { fileJobLog } from './job-file';
import { fileJournal } from './journal-file';
import { createLog, type Log } from './log';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, osc52, SHOW_CURSOR } from './terminal';

interface Connection {
  readonly client: ApiClient;
  readonly target: Target;
  readonly close: () => Promise<void>;
}

/** Flags over environment over the embedded sandbox. The app always talks HTTP, even to the sandbox. */
async function connect(options: AppOptions, log: Log): Promise<Connection | string> {
  const baseUrl = options.sandbox ? null : (options.baseUrl ?? process.env.LINEDESK_BASE_URL ?? null);
  const onEvent = (e: {
    method: string;
    path: string;
    attempt: number;
    status: number | null;
    ms: number;
    error?: string;
  }) => log.write(`http ${e.method} ${e.path} attempt ${e.attempt} → ${e.status ?? e.error} in ${e.ms} ms`);
  const userAgent = `linedesk/${VERSION}`;
  if (baseUrl) {
    const apiKey = process.env.LINEDESK_API_KEY;
    if (!apiKey)
      return 'LINEDESK_API_KEY is not set: a service needs its API key (or drop the base URL to use the sandbox).';
    try {
      const client = createClient({ baseUrl, apiKey, onEvent, userAgent });
      return {
        client,
        target: {
          id: client.baseUrl,
          kind: 'remote',
          label: new URL(client.baseUrl).host,
          baseUrl: client.baseUrl,
        },
        close: client.close,
      };
    } catch (err) {
      return err instanceof LinedeskError ? err.message : String(err);
    }
  }
  const { startSandbox, SandboxUnavailableError } = await import('../sandbox/index');
  try {
    const db = join(dataDir(), 'sandbox.sqlite');
    const sandbox = await startSandbox({ db, port: 0, log: log.write });
    const demo = sandbox.accounts()[0]!;
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: demo.apiKey, onEvent, userAgent });
    return {
      client,
      target: { id: `sandbox:${db}`, kind: 'sandbox', label: 'SANDBOX', baseUrl: sandbox.baseUrl },
      close: async () => {
        await client.close();
        await sandbox.close();
      },
    };
  } catch (err) {
    log.error('sandbox', err);
    return err instanceof SandboxUnavailableError
      ? err.message
      : `The embedded sandbox could not start: ${(err as Error).message}`;
  }
}

/** Runs the app until it quits; every exit path restores the terminal. Returns the exit code. */
export async function runApp(options: AppOptions): Promise<number> {
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    process.stderr.write(
      'linedesk: this is an interactive app and needs a terminal (stdin and stdout must be a TTY).\n',
    );
    return 1;
  }
  const log = createLog(join(stateDir(), 'linedesk.log'));
  const conn = await connect(options, log);
  if (typeof conn === 'string') {
    process.stderr.write(`linedesk: ${conn}\n`);
    return 2;
  }
  log.write(`start linedesk ${VERSION} → ${conn.target.kind} ${conn.target.label}`);

  const store = createAppStore({
    client: conn.client,
    target: conn.target,
    readOnly: options.readOnly,
    journal: fileJournal(join(dataDir(), 'journal.jsonl')),
    // One job file per service, so a job resumes only against the service it started on.
    jobLog: fileJobLog(
      join(
        dataDir(),
        `bulk-job-${createHash('sha256').update(conn.target.id).digest('hex').slice(0, 12)}.jsonl`,
      ),
    ),
    writeExport: (name, content) => {
      const file = join(dataDir(), 'exports', name);
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, content, { mode: 0o600 });
      return file;
    },
    logError: (context, err) => log.error(context, err),
  });

  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      process.stdin.setRawMode?.(false);
    } catch {
      // stdin may already be closed
    }
    process.stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  process.stdout.write(ENTER_ALT_SCREEN);

  let fatal: unknown = null;
  let instance: ReturnType<typeof render> | undefined;
  const die = (err: unknown) => {
    fatal ??= err;
    log.error('fatal', err);
    instance?.unmount();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    log.write(`signal ${signal}`);
    instance?.unmount();
    restore();
    process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
  process.on('exit', restore);

  try {
    instance = render(
      <ErrorBoundary onFatal={die}>
        <StoreProvider store={store}>
          <App effects={{ copy: (text) => process.stdout.write(osc52(text)) }} />
        </StoreProvider>
      </ErrorBoundary>,
      { exitOnCtrlC: false, patchConsole: true },
    );
    void store.getState().start();
    await instance.waitUntilExit();
  } catch (err) {
    fatal ??= err;
    log.error('fatal', err);
  } finally {
    restore();
    for (const s of signals) process.off(s, onSignal);
    await conn.close().catch((err) => log.error('close', err));
  }
  if (fatal) {
    process.stderr.write(`linedesk stopped after an unexpected error. Details are in ${log.file}\n`);
    return 1;
  }
  return 0;
}

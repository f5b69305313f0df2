import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkBaseUrl } from '../api/base-url';
import { type ApiClient, type ClientOptions, createClient } from '../api/client';
import { LinedeskError } from '../api/errors';
import { loadTemplates } from '../domain/templates';
import { dataDir } from '../paths';
import type { Target } from '../services/target';
import type { StoreDeps } from '../store/deps';
import { VERSION } from '../version';
import { accountOf, accountTargetId, intentsDir } from './account-id';
import { configProblems, loadConfig } from './config';
import { foreignIntents } from './foreign-intents';
import { fileIntentLog } from './intent-file';
import { fileJournal } from './journal-file';
import { adoptLegacyNotes } from './legacy-files';
import type { Log } from './log';
import { fileNotes, notesPath } from './notes-file';
import { profilesApi } from './profiles';
import { settingsApi } from './settings';
import type { TargetChoice } from './target';

/**
 * How the app and the headless commands reach a service and build the store's dependencies: one
 * place, so a script and the screen share the journal, the intent log per service and the settings.
 */
export interface Connection {
  readonly client: ApiClient;
  readonly target: Target;
  readonly profile: string | null;
  /** The id an earlier linedesk gave this service (its base URL alone), whose files may be adopted. */
  readonly legacyTargetId?: string;
  readonly close: () => Promise<void>;
}

export const USER_AGENT = `linedesk/${VERSION}`;

/** What tests may set on the client: fewer read retries, a shorter deadline, a resolver of their own. */
export type ClientTuning = Pick<ClientOptions, 'retry' | 'deadlineMs' | 'lookup'>;

/** Why a connection could not be made: the target is unusable (usage) or could not start (unreachable). */
export interface ConnectFailure {
  readonly message: string;
  readonly kind: 'config' | 'unreachable';
}

/** Always HTTP, even to the embedded sandbox. A string is the reason it could not connect. */
export async function connect(
  choice: TargetChoice,
  log: Log,
  opts: {
    readonly dataDir?: string;
    /** Tests: fewer read retries, a shorter deadline, a resolver of their own. */
    readonly client?: ClientTuning;
  } = {},
): Promise<Connection | ConnectFailure> {
  const onEvent = (e: {
    method: string;
    path: string;
    attempt: number;
    status: number | null;
    ms: number;
    error?: string;
  }) => log.write(`http ${e.method} ${e.path} attempt ${e.attempt} → ${e.status ?? e.error} in ${e.ms} ms`);
  if (choice.kind === 'error') return { message: choice.message, kind: 'config' };
  if (choice.kind === 'remote') {
    try {
      const client = createClient({
        baseUrl: choice.baseUrl,
        apiKey: choice.apiKey,
        onEvent,
        userAgent: USER_AGENT,
        ...opts.client,
      });
      return {
        client,
        profile: choice.profile,
        legacyTargetId: client.baseUrl,
        target: { ...accountOf(choice, opts.dataDir ?? dataDir()), kind: 'remote', baseUrl: client.baseUrl },
        close: client.close,
      };
    } catch (err) {
      return { message: err instanceof LinedeskError ? err.message : String(err), kind: 'config' };
    }
  }
  const { startSandbox, SandboxUnavailableError } = await import('../sandbox/index');
  try {
    const db = join(opts.dataDir ?? dataDir(), 'sandbox.sqlite');
    const sandbox = await startSandbox({ db, port: 0, log: log.write });
    const demo = sandbox.accounts()[0]!;
    const client = createClient({
      baseUrl: sandbox.baseUrl,
      apiKey: demo.apiKey,
      onEvent,
      userAgent: USER_AGENT,
      ...opts.client,
    });
    return {
      client,
      profile: null,
      target: { ...accountOf(choice, opts.dataDir ?? dataDir()), kind: 'sandbox', baseUrl: sandbox.baseUrl },
      close: async () => {
        await client.close();
        await sandbox.close();
      },
    };
  } catch (err) {
    log.error('sandbox', err);
    return {
      kind: 'unreachable',
      message:
        err instanceof SandboxUnavailableError
          ? err.message
          : `The embedded sandbox could not start: ${(err as Error).message}`,
    };
  }
}

/** The account ids of the configured profiles on this service (however their URL is written). */
function otherProfiles(baseUrl: string, config: ReturnType<typeof loadConfig>): Set<string> {
  const ids = new Set<string>();
  for (const p of Object.values(config?.profiles ?? {})) {
    try {
      if (checkBaseUrl(p.baseUrl).href === baseUrl) ids.add(accountTargetId(baseUrl, p.apiKey));
    } catch {
      // a profile with a bad URL has no jobs here
    }
  }
  return ids;
}

/** A file problem at start is said, never a reason not to start. */
function safely(log: Log, adopt: () => string[]): string[] {
  try {
    return adopt();
  } catch (err) {
    log.error('legacy files', err);
    return [
      `Files an earlier linedesk kept could not be looked at (${(err as Error).message}); they are left as they are.`,
    ];
  }
}

export const isConnection = (c: Connection | ConnectFailure): c is Connection => 'client' in c;

/**
 * The store's dependencies that live in files, for one service and account: the journal (shared by
 * every service), the intent log (one directory per account: open changes are checked only by the
 * account that made them), settings, notes, templates, exports and the log. Files an earlier
 * linedesk kept per URL are adopted first when the account is certain (app/legacy-files.ts).
 */
export function fileDeps(
  conn: Connection,
  log: Log,
  opts: { readonly dataDir?: string; readonly configPath?: string } = {},
): Omit<StoreDeps, 'client' | 'target'> {
  const data = opts.dataDir ?? dataDir();
  const intents = fileIntentLog(intentsDir(data, conn.target.id));
  const startProblems = conn.legacyTargetId
    ? safely(log, () =>
        adoptLegacyNotes({
          legacyId: conn.legacyTargetId!,
          targetId: conn.target.id,
          dataDir: data,
          config: loadConfig(opts.configPath),
          log,
        }),
      )
    : [];
  // A config that cannot be read is said where the profiles are read; here the default window holds.
  let holdMinutes: number | undefined;
  try {
    holdMinutes = loadConfig(opts.configPath)?.holdMinutes;
  } catch {
    holdMinutes = undefined;
  }
  return {
    journal: fileJournal(join(data, 'journal.jsonl')),
    intents,
    ...(holdMinutes ? { holdMs: holdMinutes * 60_000 } : {}),
    ...(conn.legacyTargetId
      ? {
          foreignIntents: foreignIntents(
            data,
            conn.legacyTargetId,
            conn.target.id,
            intents,
            otherProfiles(conn.legacyTargetId, loadConfig(opts.configPath)),
          ),
        }
      : {}),
    startProblems: [...configProblems(opts.configPath), ...startProblems],
    writeExport: (name, content) => {
      const file = join(data, 'exports', name);
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, content, { mode: 0o600 });
      return file;
    },
    profiles: profilesApi(conn.profile, USER_AGENT, opts.configPath),
    settings: settingsApi(conn.target.id, opts.configPath, conn.legacyTargetId),
    notes: fileNotes(notesPath(data, conn.target.id)),
    templates: loadTemplates(loadConfig(opts.configPath)?.templates),
    logError: (context, err) => log.error(context, err),
  };
}

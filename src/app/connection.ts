import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkBaseUrl } from '../api/base-url';
import { type ApiClient, type ClientOptions, createClient } from '../api/client';
import { LinedeskError } from '../api/errors';
import { type LinkTemplates, linkTemplatesFor } from '../domain/links';
import { loadTemplates, type Template } from '../domain/templates';
import { dataDir } from '../paths';
import type { ViewsApi } from '../present/saved-views';
import type { BalanceMemory } from '../services/balance-watch';
import type { ForeignJob, IntentLog } from '../services/changes/intent-log';
import type { Journal } from '../services/changes/journal';
import type { Notes } from '../services/notes';
import type { ProfilesApi, SettingsApi } from '../services/settings';
import type { Target } from '../services/target';
import { VERSION } from '../version';
import { accountOf, accountTargetId, intentsDir } from './account-id';
import { balancesPath, fileBalances } from './balance-file';
import { type Config, keysIn, type ReadConfig } from './config';
import { foreignIntents } from './foreign-intents';
import { fileIntentLog } from './intent-file';
import { fileJournal } from './journal-file';
import type { Log } from './log';
import { fileNotes, notesPath } from './notes-file';
import { profilesApi } from './profiles';
import { settingsApi } from './settings';
import type { TargetChoice } from './target';
import { viewsApi } from './views-config';

/**
 * How the app and the headless commands reach a service and build the store's dependencies: one
 * place, so a script and the screen share the journal, the intent log per service and the settings.
 */
export interface Connection {
  readonly client: ApiClient;
  readonly target: Target;
  readonly profile: string | null;
  readonly close: () => Promise<void>;
}

export const USER_AGENT = `linedesk/${VERSION}`;

/** What tests may set on the client: fewer read retries, a shorter deadline, a resolver of their own. */
export type ClientTuning = Pick<ClientOptions, 'retry' | 'deadlineMs' | 'lookup'>;

/** Why a connection could not be made: the target is unusable (usage) or could not start (unreachable). */
interface ConnectFailure {
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
function otherProfiles(baseUrl: string, config: Config | null): Set<string> {
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

export const isConnection = (c: Connection | ConnectFailure): c is Connection => 'client' in c;

/** What `fileDeps` gives both front-ends: the files of one account, and the config's settings. */
interface FileDeps {
  readonly journal: Journal;
  readonly intents: IntentLog;
  /** The last balance seen per account (balances.json beside the journal): the drift check's memory. */
  readonly balances: BalanceMemory;
  readonly holdMs?: number;
  readonly foreignIntents?: () => readonly ForeignJob[];
  readonly startProblems: readonly string[];
  readonly writeExport: (name: string, content: string) => string;
  readonly profiles: ProfilesApi;
  readonly settings: SettingsApi;
  readonly notes: Notes;
  readonly templates: { readonly templates: readonly Template[]; readonly errors: readonly string[] };
  /** Saved views (every account's) and this account's search history, in the config. */
  readonly views: ViewsApi;
  /** This service's connection-link templates (its profile's, the config's, the defaults). */
  readonly links: LinkTemplates;
  readonly logError: (context: string, err: unknown) => void;
  /**
   * Every key linedesk knows at the moment it is asked: what a program of yours runs without (the
   * app builds its runner from it; a command runs no program, so it never loads `node:child_process`).
   */
  readonly keysToHide: () => readonly string[];
}

/**
 * The dependencies that live in files, for one service and account: the journal (shared by every
 * service), the intent log (one directory per account: open changes are checked only by the account
 * that made them), settings, notes, templates, exports and the log. `config`: the config as the
 * start read it (read once: the hold window, the templates, the other profiles and the settings come
 * from it; the file is read again only to save, or when the profiles UI lists them).
 */
export function fileDeps(
  conn: Connection,
  log: Log,
  opts: {
    readonly dataDir?: string;
    readonly configPath?: string;
    readonly config: ReadConfig;
    /** The API key in use, when it is one of the user's (not the sandbox's). */
    readonly apiKey?: string;
  },
): FileDeps {
  const data = opts.dataDir ?? dataDir();
  const { config, problems } = opts.config;
  // Every key linedesk knows is kept from a program's environment, under whatever name: the one in
  // use, and every key in the config as saved now — the left-out profiles' (read at start) and a
  // profile added during the session. A key once known stays hidden for the session.
  const keys = new Set([
    ...(opts.apiKey ? [opts.apiKey] : []),
    ...Object.values(config?.profiles ?? {}).map((p) => p.apiKey),
    ...opts.config.keys,
  ]);
  const remember = (saved: Config) => {
    for (const k of keysIn(saved)) keys.add(k);
  };
  const intents = fileIntentLog(intentsDir(data, conn.target.id));
  const holdMinutes = config?.holdMinutes;
  // Jobs recorded for this service under another account id (a key changed since, an earlier
  // version's per-URL id): a remote service only, found by its URL.
  const baseUrl = conn.target.kind === 'remote' ? conn.target.baseUrl : null;
  const views = viewsApi(conn.target.id, opts.configPath, config);
  // A bad link template is named with the config's other problems and left out: never fatal.
  const links = linkTemplatesFor(config, conn.profile);
  return {
    journal: fileJournal(join(data, 'journal.jsonl')),
    intents,
    balances: fileBalances(balancesPath(data)),
    ...(holdMinutes ? { holdMs: holdMinutes * 60_000 } : {}),
    ...(baseUrl
      ? {
          foreignIntents: foreignIntents(
            data,
            baseUrl,
            conn.target.id,
            intents,
            otherProfiles(baseUrl, config),
          ),
        }
      : {}),
    // A bad saved view or link template is said at start with the config's other left-out entries.
    startProblems: [...problems, ...views.problems, ...links.errors],
    writeExport: (name, content) => {
      const file = join(data, 'exports', name);
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, content, { mode: 0o600 });
      return file;
    },
    profiles: profilesApi(conn.profile, USER_AGENT, opts.configPath, remember),
    keysToHide: () => [...keys],
    settings: settingsApi(conn.target.id, opts.configPath, config),
    notes: fileNotes(notesPath(data, conn.target.id)),
    templates: loadTemplates(config?.templates),
    views,
    links: links.templates,
    logError: (context, err) => log.error(context, err),
  };
}

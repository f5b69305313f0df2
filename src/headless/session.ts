import { join } from 'node:path';
import type { LineListItem } from '../api/contract';
import { type ReadConfig, readConfig } from '../app/config';
import { connect, fileDeps, isConnection } from '../app/connection';
import { createLog, type Log } from '../app/log';
import { chooseTarget } from '../app/target';
import { COMMANDS } from '../commands/spec';
import type { LinkTemplates } from '../domain/links';
import { DEFAULT_HOLD_MS } from '../domain/proof';
import type { Template } from '../domain/templates';
import { configDir, dataDir, stateDir } from '../paths';
import type { BalanceMemory } from '../services/balance-watch';
import type { ForeignJob, IntentLog } from '../services/changes/intent-log';
import type { Journal, JournalEntry } from '../services/changes/journal';
import type { ServiceClient } from '../services/client';
import type { Notes } from '../services/notes';
import {
  ambiguityText,
  lookupPasted,
  type PasteLookup,
  unsettledText,
  unsettledWhy,
} from '../services/paste-lookup';
import type { SettingsApi } from '../services/settings';
import type { Target } from '../services/target';
import type { Parsed } from './args';
import { EXIT, failureOf } from './failure';
import type { Failure, HeadlessIo, Output } from './output';

export type Run = Extract<Parsed, { kind: 'run' }>;

/** What every command gets: its parsed arguments, the output, the process's world. */
export interface Ctx {
  readonly run: Run;
  readonly out: Output;
  readonly io: HeadlessIo;
  readonly now: () => number;
  readonly log: Log;
  readonly dirs: { readonly data: string; readonly configPath: string };
  /**
   * The config file as this command read it: read once, when first asked (a command that needs no
   * config never reads it), and passed on to the target choice, the connection's files, the
   * settings and the templates. Throws the config's error (exit 2) each time it is asked.
   */
  readonly config: () => ReadConfig;
}

export function makeCtx(run: Run, out: Output, io: HeadlessIo): Ctx {
  const env = io.env;
  let log: Log | undefined;
  const configPath = join(configDir(env), 'config.json');
  let config: { read: ReadConfig } | { error: unknown } | undefined;
  return {
    run,
    out,
    io,
    now: io.now ?? Date.now,
    // Made when first written to: `completion` and `journal` create no state directory.
    get log() {
      log ??= createLog(join(stateDir(env), 'linedesk.log'));
      return log;
    },
    dirs: { data: dataDir(env), configPath },
    config() {
      if (!config)
        try {
          config = { read: readConfig(configPath) };
        } catch (error) {
          config = { error };
        }
      if ('error' in config) throw config.error;
      return config.read;
    },
  };
}

/** What a command's lookup helpers give: lines by id or username, and the one line an argument names. */
interface Lookups {
  /** Lines by id or username (the paste lookup: searches or one walk, whichever costs fewer requests). */
  lookup: (
    items: readonly string[],
    opts?: {
      readonly cancelled?: () => boolean;
      /** Pages walked at most for items the search cannot find (default: the whole list). */
      readonly maxPages?: number;
      /** The account's line count, when read already: what a walk would cost, without a request. */
      readonly total?: number;
    },
  ) => Promise<PasteLookup>;
  /** The one line a command's argument names (the same lookup), or why none: not found, or a case-only clash. */
  lookupOne: (item: string) => Promise<{ line: LineListItem } | { failure: Failure }>;
}

/**
 * What a command runs on without the screens' store: the services below both front-ends, on the
 * chosen service and account, with the app's files (the same journal, intent log per account,
 * notes, settings). Built by `withServices`.
 */
export interface Services extends Lookups {
  /** The client's endpoint functions; the last error any of them threw is kept for `failure`. */
  readonly client: ServiceClient;
  /** The service and account the command runs on (its id keys the intent log, the notes, settings). */
  readonly target: Target;
  /** The journal (shared by every account); entries whose last write failed are said at the end. */
  readonly journal: Journal | null;
  /** This account's intent log on disk. */
  readonly intents: IntentLog | null;
  /** The last balance seen per account (the drift check's memory). */
  readonly balances: BalanceMemory | null;
  /** Open jobs recorded for this service under another account id. */
  readonly foreignIntents: (() => readonly ForeignJob[]) | null;
  /** This account's notes on this machine. */
  readonly notes: Notes;
  /** The user's settings in the config (the renewals window, the low-balance threshold). */
  readonly settings: SettingsApi | null;
  /** The config's templates over the defaults, and what was refused at load. */
  readonly templates: { readonly templates: readonly Template[]; readonly errors: readonly string[] };
  /** This service's connection-link templates (domain/links.ts). */
  readonly links: LinkTemplates;
  /** The hold window in force (the config's `holdMinutes`, or the default). */
  readonly holdMs: number;
  readonly now: () => number;
  /** Pauses between checks and retries (held: a command's process has nothing else holding it). */
  readonly sleep: (ms: number) => Promise<void>;
  /** Where unexpected errors go (the log file). */
  readonly logError: (context: string, err: unknown) => void;
  /** Writes an export file and says where. */
  readonly writeExport: ((name: string, content: string) => string) | null;
  /** A failed read's message as a failure, with the kind of the last error the client met. */
  failure: (message: string) => Failure;
  /**
   * Work to stop when the command ends or is interrupted (a signal: `stopCommand`): nothing new is
   * sent, requests in flight may answer within `graceMs`. Called once each, latest first.
   */
  onStop: (stop: (graceMs: number) => Promise<void>) => void;
}

/** How long requests in flight may take to answer when a command ends or is interrupted. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * The pauses between checks of an unclear outcome. The store's default timer does not hold the event
 * loop (the app may quit during one); a command's process has nothing else holding it, so it would
 * end silently, outcome unknown, exit 0, in the middle of the check.
 */
const held = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The services on the chosen service, as the app builds them (the same journal, intent log per
 * account, settings, notes): flags, then the environment, then the default profile, then the
 * embedded sandbox (also when nothing is configured: a script never meets the welcome screen).
 * Returns the exit code of `body`, or of why no connection could be made. No screen store is built.
 */
export async function withServices(ctx: Ctx, body: (services: Services) => Promise<number>): Promise<number> {
  const { run, out, log } = ctx;
  const read = ctx.config();
  const { config } = read;
  let choice = chooseTarget(run.target, ctx.io.env, config);
  // Nothing chose: a newcomer's demo (no config) runs on the sandbox; a change sent to it on a
  // machine with profiles is a script whose LINEDESK_PROFILE went missing, and is refused.
  const implicit = choice.kind === 'welcome' || (choice.kind === 'sandbox' && !run.target.sandbox);
  if (choice.kind === 'welcome') choice = { kind: 'sandbox' };
  const profiles = Object.keys(config?.profiles ?? {});
  if (implicit && profiles.length && COMMANDS[run.command].mutation && run.values.yes === true) {
    out.fail({
      code: 'usage',
      message: `No service was chosen, and a change is not sent to the embedded sandbox by default where profiles exist (${profiles.join(', ')}): choose one with --profile NAME or LINEDESK_PROFILE (or --base-url), or --sandbox to mean the sandbox. Nothing was sent`,
      path: null,
      exit: EXIT.usage,
    });
    return EXIT.usage;
  }
  if (choice.kind === 'error') {
    out.fail({
      code: 'config',
      message: choice.message,
      path: choice.field ? [choice.field] : null,
      exit: EXIT.usage,
    });
    return EXIT.usage;
  }
  const tune = ctx.io.tune;
  const conn = await connect(choice, log, {
    dataDir: ctx.dirs.data,
    ...(tune?.client ? { client: tune.client } : {}),
  });
  if (!isConnection(conn)) {
    out.fail({
      code: conn.kind === 'config' ? 'config' : 'unreachable',
      message: conn.message,
      path: null,
      exit: conn.kind === 'config' ? EXIT.usage : EXIT.unreachable,
    });
    return conn.kind === 'config' ? EXIT.usage : EXIT.unreachable;
  }
  log.write(`headless ${run.command} → ${conn.target.kind} ${conn.target.label}`);
  // Said on every run, terminal or not: a cron job's log shows it ran on the demo data.
  if (conn.target.kind === 'sandbox')
    out.message(
      `On the embedded sandbox: nothing real is charged${implicit ? ' (no service chosen: --profile, LINEDESK_PROFILE or --base-url choose one)' : ''}.`,
      'dim',
    );
  // A failed read keeps only a message; the command needs its kind too (exit 5 or 1).
  let last: unknown = null;
  const client = Object.fromEntries(
    Object.entries(conn.client).map(([k, v]) => [
      k,
      typeof v === 'function'
        ? async (...a: unknown[]) => {
            try {
              return await (v as (...x: unknown[]) => Promise<unknown>)(...a);
            } catch (err) {
              last = err;
              throw err;
            }
          }
        : v,
    ]),
  ) as typeof conn.client;
  const files = fileDeps(conn, log, {
    dataDir: ctx.dirs.data,
    configPath: ctx.dirs.configPath,
    config: read,
  });
  const journal = watched(files.journal);
  for (const problem of files.startProblems) out.message(problem);
  const stops: ((graceMs: number) => Promise<void>)[] = [];
  const stopAll = async () => {
    while (stops.length) await stops.pop()!(SHUTDOWN_GRACE_MS);
  };
  stopping = stopAll;
  const lookup: Lookups['lookup'] = (items, o = {}) =>
    lookupPasted(client, items, {
      cancelled: o.cancelled ?? (() => out.closed),
      progress: (n) => out.progress(`looking up ${n} of ${items.length}…`),
      ...(o.maxPages !== undefined ? { maxPages: o.maxPages } : {}),
      ...(o.total !== undefined ? { total: o.total } : {}),
    });
  try {
    return await body({
      client,
      target: conn.target,
      journal,
      intents: files.intents,
      balances: files.balances,
      foreignIntents: files.foreignIntents ?? null,
      notes: files.notes,
      settings: files.settings,
      templates: files.templates,
      links: files.links,
      holdMs: files.holdMs ?? DEFAULT_HOLD_MS,
      now: ctx.now,
      sleep: tune?.sleep ?? held,
      logError: files.logError,
      writeExport: files.writeExport,
      failure: (message) => {
        const f = last ? failureOf(last) : null;
        return { code: f?.code ?? 'failed', message, path: f?.path ?? null, exit: f?.exit ?? EXIT.failed };
      },
      onStop: (stop) => {
        stops.push(stop);
      },
      lookup,
      lookupOne: async (item) => {
        const looked = await lookup([item]);
        const { found, ambiguous } = looked;
        const line = found.get(item);
        if (line) return { line };
        const several = ambiguous.get(item);
        // Not found is said only when the whole list was read; else why not, in the one wording, and
        // the one code for a line not proven absent (a line of --stdin gets it too: commands/change.ts).
        const why = unsettledWhy(looked, item);
        return {
          failure: several
            ? { code: 'line_ambiguous', message: ambiguityText(item, several), path: null, exit: EXIT.failed }
            : {
                code: why ? 'line_unsettled' : 'line_not_found',
                message: why
                  ? `"${item.trim()}" was ${unsettledText(why, undefined, looked.nameless)}`
                  : `No line answers to "${item.trim()}"`,
                path: null,
                exit: EXIT.failed,
              },
        };
      },
    });
  } finally {
    stopping = null;
    await stopAll();
    await conn.close().catch((err) => log.error('close', err));
    // The app retries a failed journal write every few seconds; a command ends after one last try
    // (shutdown), so what is still not written is said, and printed, rather than lost in silence.
    if (journal.unwritten.size) {
      out.message(
        `linedesk: the journal (${join(ctx.dirs.data, 'journal.jsonl')}) could not be written: ${journal.unwritten.size} entr${journal.unwritten.size === 1 ? 'y is' : 'ies are'} not in it (below, one JSON line each). The outcomes printed above stand.`,
        'red',
      );
      for (const e of journal.unwritten) out.message(JSON.stringify(e));
    }
  }
}

/** The journal, with the entries whose last write failed (the writer retries them oldest first). */
function watched(inner: Journal): Journal & { readonly unwritten: Set<JournalEntry> } {
  const unwritten = new Set<JournalEntry>();
  return {
    ...inner,
    unwritten,
    append(entry) {
      try {
        inner.append(entry);
      } catch (err) {
        unwritten.add(entry);
        throw err;
      }
      unwritten.delete(entry);
    },
  };
}

let stopping: (() => Promise<void>) | null = null;

/** A signal during a command: nothing new is sent, requests in flight may answer (bounded). */
export function stopCommand(): Promise<void> {
  return stopping?.() ?? Promise.resolve();
}

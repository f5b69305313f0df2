import { join } from 'node:path';
import { loadConfig } from '../app/config';
import { connect, fileDeps, isConnection } from '../app/connection';
import { createLog, type Log } from '../app/log';
import { chooseTarget } from '../app/target';
import { COMMANDS } from '../commands/spec';
import { DEFAULT_HOLD_MS } from '../domain/proof';
import { configDir, dataDir, stateDir } from '../paths';
import { type AppStore, createAppStore } from '../store/app-store';
import type { IntentLog } from '../store/intent-log';
import type { Journal, JournalEntry } from '../store/journal';
import { ambiguityText, lookupPasted, type PasteLookup } from '../store/paste-lookup';
import type { LineListItem } from '../store/types';
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
}

export function makeCtx(run: Run, out: Output, io: HeadlessIo): Ctx {
  const env = io.env;
  let log: Log | undefined;
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
    dirs: { data: dataDir(env), configPath: join(configDir(env), 'config.json') },
  };
}

export interface StoreHelp {
  /** The service the command runs on, as the JSON of a change names it. */
  target: { readonly kind: 'sandbox' | 'remote'; readonly label: string };
  /** A failed load's message as a failure, with the kind of the last error the client met. */
  failure: (message: string) => Failure;
  /** Lines by id or username (the paste lookup: a search each, then one walk for ids it missed). */
  lookup: (
    items: readonly string[],
    cancelled?: () => boolean,
    /** Pages walked at most for items the search cannot find (default: the whole list). */
    maxPages?: number,
  ) => Promise<PasteLookup>;
  /** The one line a command's argument names (the same lookup), or why none: not found, or a case-only clash. */
  lookupOne: (item: string) => Promise<{ line: LineListItem } | { failure: Failure }>;
  /** This account's intent log on disk (`pending` lists it, sets a damaged file aside). */
  intents: IntentLog | null;
  /** The hold window in force (the config's `holdMinutes`, or the default). */
  holdMs: number;
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
 * The store on the chosen service, as the app builds it (the same journal, intent log per service,
 * settings, profiles): flags, then the environment, then the default profile, then the embedded
 * sandbox (also when nothing is configured: a script never meets the welcome screen). Returns the
 * exit code of `body`, or of why no connection could be made.
 */
export async function withStore(
  ctx: Ctx,
  body: (store: AppStore, help: StoreHelp) => Promise<number>,
): Promise<number> {
  const { run, out, log } = ctx;
  const config = loadConfig(ctx.dirs.configPath);
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
  // The store keeps a failed load's message; the command needs its kind too (exit 5 or 1).
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
  const files = fileDeps(conn, log, { dataDir: ctx.dirs.data, configPath: ctx.dirs.configPath });
  const journal = files.journal ? watched(files.journal) : null;
  for (const problem of files.startProblems ?? []) out.message(problem);
  const store = createAppStore({
    client,
    target: conn.target,
    ...files,
    ...(journal ? { journal } : {}),
    pageSize: 100,
    now: ctx.now,
    sleep: tune?.sleep ?? held,
  });
  stopping = () => store.getState().shutdown(SHUTDOWN_GRACE_MS);
  // What the app would flash (a journal write that failed, items the server sent unreadable) goes
  // to stderr.
  const unflash = store.subscribe((s, prev) => {
    if (s.flash && s.flash !== prev.flash && (s.flash.tone === 'error' || s.flash.tone === 'warning'))
      out.message(s.flash.text, 'yellow');
  });
  const lookup = (items: readonly string[], cancelled = () => out.closed, maxPages?: number) =>
    lookupPasted(client, items, {
      cancelled,
      progress: (n) => out.progress(`looking up ${n} of ${items.length}…`),
      ...(maxPages !== undefined ? { maxPages } : {}),
    });
  try {
    return await body(store, {
      target: { kind: conn.target.kind, label: conn.target.label },
      failure: (message) => {
        const f = last ? failureOf(last) : null;
        return { code: f?.code ?? 'failed', message, path: f?.path ?? null, exit: f?.exit ?? EXIT.failed };
      },
      intents: files.intents ?? null,
      holdMs: files.holdMs ?? DEFAULT_HOLD_MS,
      lookup,
      lookupOne: async (item) => {
        const { found, ambiguous } = await lookup([item]);
        const line = found.get(item);
        if (line) return { line };
        const several = ambiguous.get(item);
        return {
          failure: several
            ? { code: 'line_ambiguous', message: ambiguityText(item, several), path: null, exit: EXIT.failed }
            : {
                code: 'line_not_found',
                message: `No line answers to "${item.trim()}"`,
                path: null,
                exit: EXIT.failed,
              },
        };
      },
    });
  } finally {
    unflash();
    stopping = null;
    await store.getState().shutdown(SHUTDOWN_GRACE_MS);
    await conn.close().catch((err) => log.error('close', err));
    // The app retries a failed journal write every few seconds; a command ends after one last try
    // (shutdown), so what is still not written is said, and printed, rather than lost in silence.
    if (journal?.unwritten.size) {
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

/** Resolves once `check` holds for the store's state (checked now and after every change). */
export function until(
  store: AppStore,
  check: (s: ReturnType<AppStore['getState']>) => boolean,
): Promise<void> {
  if (check(store.getState())) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = store.subscribe((s) => {
      if (check(s)) {
        stop();
        resolve();
      }
    });
  });
}

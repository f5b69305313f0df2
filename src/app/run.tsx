import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { AppOptions } from '../cli-args';
import { setSpokenKeys } from '../commands/keymap';
import { applyUserKeys, userKeysNotice } from '../commands/user-keys';
import { handlePaste } from '../keys/input';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, createPasteHub, installPasteFilter } from '../keys/paste';
import { dataDir, stateDir } from '../paths';
import { linesPageSize } from '../present/frame';
import { spokenPageSize } from '../present/speech';
import { createAppStore } from '../store/app-store';
import type { StoreDeps } from '../store/deps';
import { glyphMode, localeIsUtf8, setGlyphMode } from '../ui/glyphs';
import { screenReaderWanted } from '../ui/screen-reader';
import type { WelcomeResult } from '../ui/screens/WelcomeScreen';
import { VERSION } from '../version';
import { systemClipboard } from './clipboard';
import { configPath, EMPTY_CONFIG, type ReadConfig, readConfig, saveConfig } from './config';
import { type Connection, connect, fileDeps, isConnection, USER_AGENT } from './connection';
import { findAcrossApi } from './find-across';
import { homeProblems } from './home-dirs';
import { createLog } from './log';
import { loadMallocTrim } from './malloc-trim';
import { createMemoryKeeper } from './memory';
import { checkAccountFields } from './profiles';
import { programRunner } from './run-program';
import { chooseTarget } from './target';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR } from './terminal';
import type { Instance } from './ui-entry';

/** How long the first frame waits for the first screen's data before it shows "loading". */
const FIRST_SCREEN_GRACE_MS = 150;

/**
 * The app's code cache (scripts/cached-script.mjs) is saved at the first idle moment after the first
 * frame with data: this long without a change of the store's state (a key, a page, a reply).
 */
const CACHE_IDLE_MS = 300;
/** Never idle that long this soon: no cache this time (the next start tries again). */
const CACHE_WAIT_MS = 5_000;

/** V8's memory flags and collections (app/memory.ts): one keeper for the process. */
let collect: ((opts: object) => void) | null | undefined;
/** The memory keeper's last flags (the save of the code cache undoes them for its length). */
let memoryFlags = '';
/** glibc's malloc_trim, loaded at the first trim (after the first frame: off the start's path). */
let mallocTrim: (() => void) | null | undefined;
const memory = createMemoryKeeper({
  setFlags: (flags) => {
    memoryFlags = flags;
    process.getBuiltinModule('node:v8').setFlagsFromString(flags);
  },
  // V8's `gc`, reached through a new context once --expose-gc is set: after a walk, the old space
  // and young generation it grew are given back at once, the result on screen. A last-resort one
  // (what V8 does near its heap limit: every page it can return) gives back ≈ 70 MB more than a
  // plain major one, in ≈ 60 ms now that the marks are ≈ 10 MB of live heap (it held the thread
  // 0.2–0.5 s when they were 60; docs/PERFORMANCE.md, "Memory"); an incremental one gave back as
  // much but later.
  collect: () => {
    if (collect === undefined) {
      process.getBuiltinModule('node:v8').setFlagsFromString('--expose-gc');
      const gc: unknown = process
        .getBuiltinModule('node:vm')
        .runInNewContext('typeof gc === "function" ? gc : null');
      collect = typeof gc === 'function' ? (gc as (opts: object) => void) : null;
    }
    collect?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  },
  schedule: (fn, ms) => setTimeout(fn, ms).unref(),
  trim: () => {
    if (mallocTrim === undefined) mallocTrim = loadMallocTrim();
    mallocTrim?.();
  },
});
const heavyWork = memory.heavyWork;

/**
 * Saves the app's code cache (`save`, from the loader) as if no flag had been set since the script
 * was compiled: V8 stamps a cache with a hash of its flags and rejects it in a process whose flags
 * differ (the next start, before the memory keeper sets any). `--no-turbofan` is undone for the save
 * and set again; --optimize-for-size cannot be (its implications stay: a cache made after it was
 * rejected, tried), so the save comes before `memory.hold()`, and none after it or a collection.
 * Only the time it would have saved is lost when it is not made.
 */
function saveCodeCache(save: () => void): void {
  if (/(^|\s)--optimize-for-size/.test(memoryFlags) || collect !== undefined) return;
  const v8 = process.getBuiltinModule('node:v8');
  if (memoryFlags) v8.setFlagsFromString('--turbofan');
  try {
    save();
  } finally {
    if (memoryFlags) v8.setFlagsFromString(memoryFlags);
  }
}
/** On quit or a signal during a job: how long requests in flight may take to answer. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Runs the app until it quits; every exit path restores the terminal. Returns the exit code.
 * `saveCache`: the built app's loader hands its code cache's save when it has one to make
 * (scripts/cached-script.mjs): made once the first frame with data is drawn, or at a clean exit.
 */
export async function runApp(options: AppOptions, saveCache?: (() => void) | null): Promise<number> {
  memory.start();
  /**
   * The code cache: none to make, to make once the main screen has its data ('waiting'), to make at
   * the next idle moment or a quit ('due'), or made.
   */
  let cache: 'none' | 'waiting' | 'due' | 'made' = saveCache ? 'waiting' : 'none';
  const cacheNow = () => {
    if (cache !== 'due' || !saveCache) return;
    cache = 'made';
    saveCodeCache(saveCache);
  };
  const cacheToMake = () => cache === 'waiting' || cache === 'due';
  /**
   * With a cache to make: once the first screen's data is in, the first moment CACHE_IDLE_MS without
   * a change of state makes it, then the memory keeper's hold (which the save must come before); at
   * most CACHE_WAIT_MS after the data, the hold comes without it. Returns a stop for the pass's end.
   */
  const holdAfterCache = (app: { subscribe: (fn: () => void) => () => void }, data: Promise<void>) => {
    let idle: ReturnType<typeof setTimeout> | undefined;
    let latest: ReturnType<typeof setTimeout> | undefined;
    let armed = false;
    let held = false;
    const hold = () => {
      if (held) return;
      held = true;
      stop();
      memory.hold();
    };
    const arm = () => {
      if (!armed || held) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        cacheNow();
        hold();
      }, CACHE_IDLE_MS).unref();
    };
    const unsubscribe = app.subscribe(arm);
    const stop = () => {
      clearTimeout(idle);
      clearTimeout(latest);
      unsubscribe();
    };
    const onData = () => {
      if (held) return;
      armed = true;
      cache = 'due';
      latest = setTimeout(hold, CACHE_WAIT_MS).unref();
      arm();
    };
    void data.then(onData, onData);
    return () => {
      stop();
      held = true;
    };
  };
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    process.stderr.write(
      'linedesk: this is an interactive app and needs a terminal (stdin and stdout must be a TTY).\n',
    );
    return 1;
  }
  // A terminal whose locale is not UTF-8 (LANG=C over SSH) is drawn in ASCII (ui/glyphs.ts); the
  // screen-reader mode (ui/screen-reader.ts) is set once the config is read (it may be a setting).
  const ascii = options.ascii || !localeIsUtf8(process.env);
  setGlyphMode(ascii ? 'ascii' : 'utf8');
  // A directory linedesk cannot use is said before anything starts (the welcome's sandbox choice
  // would otherwise stop on saving the config, pointing to a log that cannot exist either).
  const problems = homeProblems(process.env, ['config', 'data']);
  if (problems.length) {
    for (const p of problems) process.stderr.write(`linedesk: ${p}\n`);
    return 2;
  }
  // Read once here and passed on (target, settings, templates, hold window); again only after a save
  // (the welcome's) or for the next pass after a profile switch.
  let config: ReadConfig;
  try {
    config = readConfig();
  } catch (err) {
    process.stderr.write(`linedesk: ${(err as Error).message}\n`);
    return 2;
  }
  if (screenReaderWanted(options.screenReader, process.env, config.config?.screenReader)) {
    setGlyphMode('speech');
    setSpokenKeys(true);
  }
  let choice = chooseTarget(options, process.env, config.config);
  if (choice.kind === 'error') {
    process.stderr.write(`linedesk: ${choice.message}\n`);
    return 2;
  }
  const log = createLog(join(stateDir(), 'linedesk.log'));

  let restored = false;
  /** The terminal went away (a dead pty: EIO, EPIPE): nothing more is written to it. */
  let terminalGone = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (terminalGone) return;
    try {
      process.stdin.setRawMode?.(false);
    } catch {
      // stdin may already be closed
    }
    process.stdout.write(BRACKETED_PASTE_OFF + SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  let fatal: unknown = null;
  let instance: Instance | undefined;
  const die = (err: unknown) => {
    fatal ??= err;
    log.error('fatal', err);
    instance?.unmount();
  };
  let store: ReturnType<typeof createAppStore> | undefined;
  let stopping = false;
  // First signal: stop scheduling, let requests in flight answer (bounded), then exit; the intent log
  // is written before each request, so it is consistent at every moment. A second signal exits at once.
  // A job stopped this way is interrupted, not cancelled: its lines never sent stay in the intent
  // log as never sent, and the next start offers them (the store's `shutdown`).
  const stop = (code: number) => {
    stopping = true;
    try {
      instance?.unmount();
    } catch (err) {
      log.error('unmount', err);
    }
    restore();
    const done = store?.getState().shutdown(SHUTDOWN_GRACE_MS) ?? Promise.resolve();
    void done.finally(() => process.exit(code));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143;
    log.write(`signal ${signal}${stopping ? ' (again: exiting now)' : ''}`);
    // The hang-up that follows a terminal already gone is the same event, not a second signal.
    if (stopping && signal === 'SIGHUP' && terminalGone) return;
    if (stopping) process.exit(code);
    stop(code);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  // A terminal that went away without a hang-up (an SSH session dropped, a pty closed): reads and
  // writes fail with EIO or EPIPE. That is a hang-up, not a crash: stop as for SIGHUP, once (the
  // errors that follow, and a SIGHUP arriving after them, do not cut the wait for requests in flight).
  const onTerminalError = (err: NodeJS.ErrnoException) => {
    if (!['EIO', 'EPIPE', 'ENXIO', 'ECONNRESET'].includes(err.code ?? '')) return die(err);
    terminalGone = true;
    if (stopping) return;
    log.write(`terminal gone (${err.code} on ${err.syscall ?? 'the terminal'})`);
    stop(129);
  };
  process.stdout.on('error', onTerminalError);
  process.stdin.on('error', onTerminalError);
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
  process.on('exit', restore);
  process.stdout.write(ENTER_ALT_SCREEN + BRACKETED_PASTE_ON);
  // Raw before each render, not when Ink's input hook mounts after the first frame (and Ink turns
  // it off when a render ends): keys typed meanwhile would be echoed and line-buffered.
  const keepKeys = () => process.stdin.setRawMode(true);
  keepKeys();
  // A paste is text, never keys: taken out of stdin before Ink sees it (keys/paste.ts), from the
  // first screen on, and handed to whichever screen is up.
  const pastes = createPasteHub();
  const removePaste = installPasteFilter(process.stdin, pastes.emit);
  let conn: Connection | undefined;
  try {
    if (choice.kind === 'welcome') {
      let result: WelcomeResult = { kind: 'quit' };
      const connectAccount = async (baseUrl: string, apiKey: string) => {
        const err = await checkAccountFields(baseUrl, apiKey, USER_AGENT);
        if (err) return err;
        saveConfig({
          ...EMPTY_CONFIG,
          welcomed: true,
          defaultProfile: 'default',
          profiles: { default: { baseUrl, apiKey } },
        });
        return null;
      };
      const ui = await import('./ui-entry');
      instance = ui.renderWelcome({ connect: connectAccount, onDone: (r) => (result = r), pastes }, die);
      await instance.waitUntilExit();
      instance = undefined;
      const picked = result as WelcomeResult;
      if (picked.kind === 'quit' || fatal) return fatal ? 1 : 0;
      if (picked.kind === 'sandbox') {
        saveConfig({ ...EMPTY_CONFIG, welcomed: true });
        choice = { kind: 'sandbox' };
      } else choice = { kind: 'remote', baseUrl: picked.baseUrl, apiKey: picked.apiKey, profile: 'default' };
      config = readConfig(); // what the welcome saved
    }

    // One pass per service: `:profile use` ends a pass and starts the next on the chosen profile
    // (a find's switch also names the line to open there).
    let openLine: StoreDeps['openLine'];
    for (;;) {
      keepKeys();
      const next = await connect(choice, log);
      if (!isConnection(next)) {
        restore();
        process.stderr.write(`linedesk: ${next.message}\n`);
        return 2;
      }
      conn = next;
      log.write(`start linedesk ${VERSION} → ${conn.target.kind} ${conn.target.label}`);
      const files = fileDeps(conn, log, {
        config,
        ...(choice.kind === 'remote' ? { apiKey: choice.apiKey } : {}),
      });
      // Your keys and commands, on the one command table: read with the config, once per pass.
      // Named by the field ("config: keys.line.extend: …"): the flash has one line, the path is the log's.
      const userKeys = applyUserKeys(config.config ?? {}, 'config');
      for (const p of userKeys.problems) log.write(`${configPath()}: ${p}`);
      store = createAppStore({
        client: conn.client,
        target: conn.target,
        readOnly: options.readOnly,
        ...files,
        runProgram: programRunner(files.keysToHide),
        // Before the config's own problems: a profile left out is said last, so it stays on screen.
        startProblems: [...userKeysNotice(userKeys.problems), ...files.startProblems],
        userKeys,
        // The app keeps checking open changes during their hold window; a script asks `pending`.
        watch: true,
        runwayAtStart: true,
        heavyWork,
        findAcross: findAcrossApi({
          userAgent: USER_AGENT,
          current: {
            profile: conn.profile,
            label: conn.target.label,
            baseUrl: conn.target.baseUrl,
            client: conn.client,
          },
          notes: { current: files.notes ?? null, dataDir: dataDir() },
        }),
        openLine,
        // The first page is asked for at the size it is shown at, not re-read when the App mounts.
        pageSize:
          glyphMode() === 'speech'
            ? spokenPageSize(linesPageSize(process.stdout.rows || 24), process.stdout.columns || 80)
            : linesPageSize(process.stdout.rows || 24),
      });
      // The requests go out before Ink's first render. A frame before the data only if the data is
      // slow: a loading frame replaced moments later costs a cold render on the way to the real one.
      const firstScreen = store.getState().start();
      // What draws loads now, while the server answers.
      const ui = await import('./ui-entry');
      await Promise.race([firstScreen, delay(FIRST_SCREEN_GRACE_MS)]);
      const app = store;
      const stopPastes = pastes.on((text) => handlePaste(app, text));
      instance = ui.renderApp(app, { copy: systemClipboard((data) => process.stdout.write(data)) }, die);
      let stopHold = () => {};
      if (cacheToMake()) stopHold = holdAfterCache(app, firstScreen);
      else memory.hold();
      const stopTrims = app.subscribe(memory.active);
      await instance.waitUntilExit();
      instance = undefined;
      stopHold();
      stopTrims();
      stopPastes();
      const switchTo = store.getState().switchProfile?.profile;
      openLine = store.getState().switchProfile?.openLine;
      // Quit (Ctrl-C included) during a job: the screen goes back now; requests in flight may answer
      // for a bounded time so their outcomes reach the intent log and the journal; nothing new is sent.
      if (!switchTo) restore();
      // Quit with q before an idle moment: the cache is made now (the screen is back; nothing waits
      // on it). Not on a signal or a lost terminal: nothing is added to the way out then.
      if (!fatal && !switchTo && !stopping) cacheNow();
      await store.getState().shutdown(SHUTDOWN_GRACE_MS);
      await conn.close().catch((err) => log.error('close', err));
      conn = undefined;
      if (fatal || !switchTo) break;
      config = readConfig();
      const fresh = chooseTarget(
        { sandbox: switchTo === 'sandbox', baseUrl: null, profile: switchTo === 'sandbox' ? null : switchTo },
        {},
        config.config,
      );
      choice = fresh;
    }
  } catch (err) {
    fatal ??= err;
    log.error('fatal', err);
  } finally {
    removePaste();
    restore();
    for (const s of signals) process.off(s, onSignal);
    process.stdout.off('error', onTerminalError);
    process.stdin.off('error', onTerminalError);
    await conn?.close().catch((err) => log.error('close', err));
  }
  if (fatal) {
    const [logProblem] = homeProblems(process.env, ['state']);
    process.stderr.write(
      log.writable
        ? `linedesk stopped after an unexpected error. Details are in ${log.file}\n`
        : `linedesk stopped after an unexpected error: ${(fatal as Error)?.message ?? String(fatal)}. No log was written${logProblem ? `: ${logProblem}` : ` (${log.file} could not be written)`}\n`,
    );
    return 1;
  }
  return 0;
}

import { type ChildProcess, spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { sanitize, sanitizeMultiline, stripSequences } from '../api/sanitize';
import type { ProgramResult, ProgramRun, RunProgram } from '../domain/user-commands';

/** Output kept per run: a page of a pager, not a log. The rest is read and dropped (the pipe never fills). */
const MAX_OUTPUT_BYTES = 256 * 1024;
/** After SIGTERM (a timeout, Esc): how long before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/** Program output is text to read, never terminal commands: sequences go whole, controls become a mark. */
function safeOutput(text: string): string {
  return sanitizeMultiline(
    stripSequences(text.replace(/\r\n/g, '\n').replace(/\r/g, '\n')).replace(/\t/g, '    '),
  );
}

/**
 * The watchdog's script (POSIX sh, its builtins only): it reads from a pipe only linedesk holds the
 * other end of. A line is linedesk's "done" (the program's group needs no watching any more); the
 * end of the pipe without one means linedesk is gone however it ended — SIGKILL included, where no
 * handler of ours runs — and the program's group ($1) is ended: SIGTERM, then at once SIGKILL, as
 * at linedesk's exit. Hang-ups and Ctrl-C are not its to obey: it runs in a session of its own.
 */
const WATCHDOG = 'trap "" HUP INT; read _ || { kill -s TERM -- "-$1"; kill -s KILL -- "-$1"; } 2>/dev/null';
const SHELL = '/bin/sh';

/**
 * Starts the watchdog of a program's group: a small `sh`, in its own session, with a minimal
 * environment (no key, no line's fields) and `/` as its directory (it holds no mount busy). Where
 * it cannot start (no /bin/sh) the program runs as before, ended by linedesk's exit only.
 */
function watch(group: number): ChildProcess | null {
  try {
    const dog = spawn(SHELL, ['-c', WATCHDOG, 'linedesk-watchdog', String(group)], {
      shell: false,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {},
      cwd: '/',
      detached: true,
      windowsHide: true,
    });
    dog.on('error', () => undefined); // no /bin/sh: linedesk's exit hook is left, as before
    dog.stdin?.on('error', () => undefined); // the watchdog gone before its "done": nothing to say
    // Neither keeps linedesk running: the watchdog waits for linedesk, never the other way round.
    dog.unref();
    (dog.stdin as (Writable & { unref?: () => void }) | null)?.unref?.();
    return dog;
  } catch {
    return null;
  }
}

/** Programs still running, by process group: ended when linedesk exits (they run in their own session). */
const running = new Map<number, ChildProcess | null>();
let exitHook = false;
function track(pid: number): () => unknown {
  running.set(pid, watch(pid));
  if (!exitHook) {
    exitHook = true;
    // At exit nothing can wait for a grace period: SIGTERM first (a program that handles it may
    // still write a line), then SIGKILL, so a program that ignores SIGTERM cannot outlive linedesk.
    // The watchdogs go last (their groups are ended already): none is left to kill a group id later.
    // Through their ChildProcess, not a raw pid: one that already ended (reaped) is not signalled, so
    // a pid reused since by another process is never hit.
    process.on('exit', () => {
      for (const sig of ['SIGTERM', 'SIGKILL'] as const)
        for (const group of running.keys()) {
          try {
            process.kill(-group, sig);
          } catch {
            // gone already
          }
        }
      for (const dog of running.values()) dog?.kill('SIGKILL');
    });
  }
  return () => {
    const dog = running.get(pid);
    running.delete(pid);
    // "Done": the watchdog reads a line and ends without a kill.
    dog?.stdin?.end('done\n');
  };
}

/** After the program exits: how long its output may still take to drain (a child it left holding the pipe). */
const DRAIN_MS = 1_000;

const expandHome = (program: string) =>
  program.startsWith('~/') ? join(homedir(), program.slice(2)) : program;

/** A value that is an API key, or holds one (a key exported under a name of the user's own). */
const holdsSecret = (value: string, secrets: readonly string[]) =>
  secrets.some((k) => k !== '' && (value === k || (k.length >= 8 && value.includes(k))));

/**
 * The runner the app uses: `secrets` says, at each run, the API keys linedesk knows now (the one in
 * use, every profile's, one added during the session included). LINEDESK_API_KEY is not the only
 * place a key can be: a profile's key exported for another tool (`SHOP_KEY=…`) would otherwise reach
 * the program; any variable holding one is left out.
 */
export const programRunner =
  (secrets: () => readonly string[]): RunProgram =>
  (run) =>
    runProgram(run, MAX_OUTPUT_BYTES, secrets());

/**
 * Runs a program of the user's (the config's `commands`): argv as given with no shell, so no value
 * is ever parsed as shell text; no terminal (stdin ignored, its own session: it cannot read the keys
 * linedesk is reading); linedesk's environment without the API key, plus `run.env`. Its output
 * (stdout and stderr as they arrive) is bounded and made safe to show. Never rejects.
 */
export function runProgram(
  run: ProgramRun,
  maxBytes = MAX_OUTPUT_BYTES,
  secrets: readonly string[] = [],
): Promise<ProgramResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== 'LINEDESK_API_KEY' && !holdsSecret(v, secrets)) env[k] = v;
  Object.assign(env, run.env);
  return new Promise((resolve) => {
    let out = '';
    let bytes = 0;
    let cut = false;
    let timedOut = false;
    let stopped = false;
    let settled = false;
    const decoder = new StringDecoder('utf8');
    let untrack = (): unknown => undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (r: Omit<ProgramResult, 'output' | 'cut' | 'timedOut' | 'stopped'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      // A stop under way (timeout, Esc) keeps its SIGKILL: the program may have ended on SIGTERM while
      // a child of its group ignores it. The group stays tracked until then (linedesk's exit kills it).
      if (!killTimer) untrack();
      run.signal?.removeEventListener('abort', onAbort);
      out += decoder.end();
      resolve({ ...r, output: safeOutput(out), cut, timedOut, stopped });
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(expandHome(run.program), [...run.args], {
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        env,
        detached: true,
        windowsHide: true,
      });
    } catch (err) {
      resolve({
        output: '',
        exitCode: null,
        signal: null,
        timedOut: false,
        stopped: false,
        cut: false,
        error: sanitize((err as Error).message),
      });
      return;
    }
    if (child.pid) untrack = track(child.pid);
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (killTimer) return;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => {
        killGroup('SIGKILL');
        untrack();
      }, KILL_GRACE_MS);
      killTimer.unref?.();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    const onAbort = () => {
      stopped = true;
      stop();
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (run.signal?.aborted) onAbort();
    const take = (chunk: Buffer) => {
      if (cut) return;
      const room = maxBytes - bytes;
      bytes += chunk.length;
      if (chunk.length > room) {
        cut = true;
        out += decoder.write(chunk.subarray(0, room));
      } else out += decoder.write(chunk);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        exitCode: null,
        signal: null,
        // The program's name is the config's text, shown in the pager: nothing in it acts on the terminal.
        error: sanitize(
          err.code === 'ENOENT'
            ? `${run.program} was not found`
            : err.code === 'EACCES'
              ? `${run.program} cannot be run (not executable)`
              : err.message,
        ),
      }),
    );
    child.on('close', (code, signal) => finish({ exitCode: code, signal, error: null }));
    // A program that left a child of its own holding its output still ends: its exit is the end.
    child.on('exit', (code, signal) => {
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish({ exitCode: code, signal, error: null });
      }, DRAIN_MS);
      drainTimer.unref?.();
    });
  });
}

// The built app in a real pseudo-terminal, its screen read through @xterm/headless (bench/memory.ts).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The resident set of a process, from /proc, in MB. */
export const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** User + system CPU seconds of a process so far. */
export const cpuSec = (pid: number, ticks = 100) => {
  const [u, s] = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]!
    .split(' ')
    .slice(11, 13)
    .map(Number);
  return (u! + s!) / ticks;
};

export interface AppInPty {
  readonly pid: number;
  readonly dir: string;
  write: (keys: string) => void;
  screen: () => string;
  /** Output chunks so far (a frame is one or a few). */
  chunks: () => number;
  /** Resolves when the screen matches, with the time the chunk that drew it arrived. */
  until: (re: RegExp, timeoutMs?: number) => Promise<number>;
  /** Waits for `quietMs` without output. */
  settle: (quietMs?: number) => Promise<void>;
  kill: () => void;
}

/**
 * `dist/linedesk.js` on this Node with `nodeArgs` before it (e.g. --heapsnapshot-signal), at
 * cols×rows, against the sandbox at `baseUrl`; its own config, data and state directories.
 */
export function launchApp(
  baseUrl: string,
  apiKey: string,
  cols: number,
  rows: number,
  nodeArgs: string[] = [],
): AppInPty {
  const dir = mkdtempSync(join(tmpdir(), 'ld-bench-mem-'));
  mkdirSync(join(dir, 'config'), { mode: 0o700 });
  writeFileSync(
    join(dir, 'config', 'config.json'),
    JSON.stringify({ version: 1, defaultProfile: null, profiles: {}, welcomed: true }),
    { mode: 0o600 },
  );
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const screenNow = () => {
    const b = term.buffer.active;
    return Array.from(
      { length: term.rows },
      (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '',
    ).join('\n');
  };
  let shown = '';
  let shownAt = 0;
  let lastChunk = performance.now();
  let chunks = 0;
  const p = pty.spawn(
    process.execPath,
    [...nodeArgs, join(process.cwd(), process.env.BENCH_APP ?? 'dist/linedesk.js')],
    {
      cols,
      rows,
      cwd: dir,
      // No CI variable: set to anything, it turns colour off and the bench would measure frames no user sees.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'CI')),
        LINEDESK_BASE_URL: baseUrl,
        LINEDESK_API_KEY: apiKey,
        LINEDESK_CONFIG_DIR: join(dir, 'config'),
        LINEDESK_DATA_DIR: dir,
        LINEDESK_STATE_DIR: dir,
      } as Record<string, string>,
    },
  );
  p.onData((d) => {
    const t = performance.now();
    lastChunk = t;
    chunks++;
    term.write(d, () => {
      shown = screenNow();
      shownAt = t;
    });
  });
  return {
    pid: p.pid,
    dir,
    write: (keys) => p.write(keys),
    screen: () => shown,
    chunks: () => chunks,
    async until(re, timeoutMs = 30_000) {
      const start = performance.now();
      for (;;) {
        if (re.test(shown)) return shownAt;
        if (performance.now() - start > timeoutMs)
          throw new Error(`timeout waiting for ${re}; the screen:\n${shown}`);
        await sleep(2);
      }
    },
    async settle(quietMs = 60) {
      while (performance.now() - lastChunk < quietMs) await sleep(5);
    },
    kill: () => p.kill(),
  };
}

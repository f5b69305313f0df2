import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { vi } from 'vitest';
import { BUNDLE, ensureBundle } from './bundle';

/** The built bundle in a real pseudo-terminal; the screen read back through a headless xterm. */
export function spawnApp(
  args: string[] = [],
  env: Record<string, string> = {},
  size = { cols: 100, rows: 30 },
  opts: { welcome?: boolean } = {},
) {
  ensureBundle();
  const dir = mkdtempSync(join(tmpdir(), 'linedesk-e2e-'));
  // Its own config directory: never the machine's. Unless a test wants the welcome screen, the
  // config says it was answered already ("try the sandbox").
  const configDir = env.LINEDESK_CONFIG_DIR ?? join(dir, 'config');
  if (!opts.welcome && !env.LINEDESK_CONFIG_DIR) {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const answered = { version: 1, defaultProfile: null, profiles: {}, welcomed: true };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(answered), { mode: 0o600 });
  }
  const term = new xterm.Terminal({ ...size, allowProposedApi: true });
  let output = '';
  // CI=true, whatever the caller's environment: Ink 8 draws only the final frame when it believes
  // it runs in CI, unless told the terminal is interactive, as the app tells it.
  const child = pty.spawn(process.execPath, [BUNDLE, ...args], {
    ...size,
    env: {
      ...process.env,
      CI: 'true',
      LINEDESK_DATA_DIR: dir,
      LINEDESK_STATE_DIR: dir,
      LINEDESK_CONFIG_DIR: configDir,
      ...env,
    } as Record<string, string>,
  });
  child.onData((d) => {
    output += d;
    term.write(d);
  });
  let exitCode: number | null = null;
  child.onExit((e) => {
    exitCode = e.exitCode;
  });
  const screen = () => {
    const b = term.buffer.active;
    return Array.from(
      { length: term.rows },
      (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '',
    ).join('\n');
  };
  return {
    child,
    term,
    dir,
    screen,
    output: () => output,
    exitCode: () => exitCode,
    write: (keys: string) => child.write(keys),
    waitFor: (check: (screen: string) => boolean, timeout = 10_000) =>
      vi.waitFor(
        () => {
          if (!check(screen())) throw new Error(`screen did not match:\n${screen()}`);
        },
        { timeout, interval: 25 },
      ),
    waitExit: () =>
      vi.waitFor(
        () => {
          if (exitCode === null) throw new Error('still running');
        },
        { timeout: 10_000, interval: 25 },
      ),
    cleanup() {
      if (exitCode === null) child.kill();
      // The killed app may still be writing into its directory (log, sandbox database) for a moment.
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    },
  };
}

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

export const BUNDLE = new URL('../../dist/linedesk.js', import.meta.url).pathname;

/** `npm test` builds first; a lone `vitest run` builds here so tests never meet a stale bundle silently. */
export function ensureBundle(): void {
  if (!existsSync(BUNDLE)) {
    const r = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: new URL('../..', import.meta.url).pathname,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('build failed');
  }
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  ensureBundle();
  return spawnSync(process.execPath, [BUNDLE, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 15_000,
  });
}

/** Starts `linedesk sandbox --json` and resolves with its one JSON line. */
export async function spawnSandbox(args: string[] = []): Promise<{
  child: ChildProcess;
  info: { baseUrl: string; accounts: Array<{ email: string; apiKey: string; credits: number }> };
  stderr: () => string;
}> {
  ensureBundle();
  const child = spawn(
    process.execPath,
    [BUNDLE, 'sandbox', '--json', '--port', '0', '--db', ':memory:', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)));
  });
  return { child, info: JSON.parse(line), stderr: () => err };
}

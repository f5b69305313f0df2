/**
 * Runs of the built bundle's headless commands (for the code-cache tests): `headlessRuns` spawns a
 * sandbox before the file's tests and makes a scratch folder (both gone after them); `headlessCaches`
 * lists the headless caches a compile-cache directory holds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { BUNDLE, ensureBundle, spawnSandbox } from '../helpers/bundle';
import { envFor } from '../helpers/headless';

/**
 * A sandbox of `lines` lines and a scratch folder named from `prefix`. Gives `scratch` (a path in
 * that folder), `sandboxEnv` (the environment of a run against the sandbox) and `run` (linedesk from
 * dist/ with `args`, `env` over that environment: it must exit 0; gives its output).
 */
export function headlessRuns(lines: number, prefix: string) {
  let sb: Awaited<ReturnType<typeof spawnSandbox>>;
  let root: string;
  beforeAll(async () => {
    ensureBundle();
    sb = await spawnSandbox(['--lines', String(lines)]);
    root = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    sb?.child.kill();
    rmSync(root, { recursive: true, force: true });
  });
  const sandboxEnv = (): NodeJS.ProcessEnv => ({
    ...process.env,
    ...envFor(sb.info.baseUrl, sb.info.accounts[0]!.apiKey),
  });
  const run = (args: string[], env: NodeJS.ProcessEnv) => {
    const r = spawnSync(process.execPath, [BUNDLE, ...args], {
      encoding: 'utf8',
      env: { ...sandboxEnv(), ...env },
      timeout: 15_000,
    });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };
  return { scratch: (name: string) => join(root, name), sandboxEnv, run };
}

/**
 * The headless caches under a compile-cache directory (Node makes one subdirectory per version), of
 * the commands `command` matches (a pattern; every command by default).
 */
export const headlessCaches = (dir: string, command = '[a-z-]+') =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => new RegExp(`(^|/)linedesk-headless-[0-9a-f]{16}-${command}$`).test(f))
    .map((f) => join(dir, f));

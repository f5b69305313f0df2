/**
 * `linedesk lines` sets V8's --semi-space-growth-factor=1 for a streamed walk of
 * more than a page and never sets it back. The headless code cache is saved after the command's
 * work, so a cache first made by such a run is stamped with that flag: V8 rejects it in every later
 * run (flags at their defaults when it loads), and each long listing writes it again.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUNDLE, ensureBundle, spawnSandbox } from '../helpers/bundle';
import { envFor } from '../helpers/headless';

let sb: Awaited<ReturnType<typeof spawnSandbox>>;
let root: string;
beforeAll(async () => {
  ensureBundle();
  sb = await spawnSandbox(['--lines', '240']);
  root = mkdtempSync(join(tmpdir(), 'linedesk-code-cache-long-'));
});
afterAll(() => {
  sb?.child.kill();
  rmSync(root, { recursive: true, force: true });
});

const run = (args: string[], env: NodeJS.ProcessEnv) => {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...envFor(sb.info.baseUrl, sb.info.accounts[0]!.apiKey), ...env },
    timeout: 15_000,
  });
  expect(r.status, r.stderr).toBe(0);
};

it("a long streamed listing's code cache is taken by the next run, not rejected and written again", () => {
  const dir = join(root, 'cache');
  const env = { NODE_COMPILE_CACHE: dir };
  const args = ['lines', '--ndjson'];
  run(args, env);
  const [cache] = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /(^|\/)linedesk-headless-[0-9a-f]{16}-lines$/.test(f))
    .map((f) => join(dir, f));
  expect(cache).toBeDefined();
  const made = statSync(cache!).mtimeMs;
  run(args, env);
  // Taken as it is: not written again.
  expect(statSync(cache!).mtimeMs).toBe(made);
});

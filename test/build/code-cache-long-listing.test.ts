/**
 * `linedesk lines` sets V8's --semi-space-growth-factor=1 for a streamed walk of
 * more than a page and never sets it back. The headless code cache is saved after the command's
 * work, so a cache first made by such a run is stamped with that flag: V8 rejects it in every later
 * run (flags at their defaults when it loads), and each long listing writes it again.
 */
import { statSync } from 'node:fs';
import { expect, it } from 'vitest';
import { headlessCaches, headlessRuns } from './headless-runs';

const { scratch, run } = headlessRuns(240, 'linedesk-code-cache-long-');

it("a long streamed listing's code cache is taken by the next run, not rejected and written again", () => {
  const dir = scratch('cache');
  const env = { NODE_COMPILE_CACHE: dir };
  const args = ['lines', '--ndjson'];
  run(args, env);
  const [cache] = headlessCaches(dir, 'lines');
  expect(cache).toBeDefined();
  const made = statSync(cache!).mtimeMs;
  run(args, env);
  // Taken as it is: not written again.
  expect(statSync(cache!).mtimeMs).toBe(made);
});

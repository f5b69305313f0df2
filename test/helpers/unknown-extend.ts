/**
 * A job left on disk for `linedesk pending`: `unknownExtend` (an extend whose outcome is unknown, its
 * request never reached the service) and `settleWhile` (then `pending --settle` of it while another
 * linedesk acts on its file).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { faultProxy } from './fault-proxy';
import { envFor, headless, homeDirs } from './headless';
import { DEMO_KEY, sandbox } from './sandbox';
import { cleanups } from './wait';

/**
 * A sandbox of 10 lines behind a proxy (closed at the test's end) that drops the first extend before
 * it is sent; `linedesk extend` of a premium line through it (exit 3: unknown). Gives the proxy, the
 * line, `run` (linedesk with that home), `settle` (`pending --settle` of the line as `as`, confirmed),
 * the data folder, the job's intent file, the job's id and the home (for a run of its own: another
 * clock…).
 */
export async function unknownExtend() {
  const env = await sandbox({ lines: 10 });
  const proxy = await faultProxy(env.sb.baseUrl, {
    rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
  });
  cleanups.push(() => proxy.close());
  const home = homeDirs();
  const line = (await env.client.listLines({ limit: 10, type: 'premium' })).lines[0]!;
  const run = (...argv: string[]) => headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home) });
  expect((await run('extend', line.username, '--yes')).code).toBe(3);
  const data = home.LINEDESK_DATA_DIR;
  const files = (readdirSync(data, { recursive: true }) as string[]).filter(
    (f) => f.endsWith('.jsonl') && f.includes('intents'),
  );
  expect(files).toHaveLength(1);
  const file = join(data, files[0]!);
  const jobId = file.slice(file.lastIndexOf('/') + 1, -'.jsonl'.length);
  const settle = (as: 'applied' | 'not-applied') =>
    run('pending', '--settle', line.username, '--as', as, '--confirm', line.username);
  return { proxy, line, run, settle, data, file, jobId, home };
}

/**
 * An unknown extend (above), then `pending --settle` of it as applied; `meanwhile` runs on the job's
 * file while the settle's recovery checks the line (its list request), as another linedesk would act
 * on it. Gives the settle's output, the job's file and the journal's path.
 */
export async function settleWhile(meanwhile: (file: string) => void) {
  const { proxy, settle, data, file } = await unknownExtend();
  let armed = true;
  proxy.set({
    onList: () => {
      if (!armed) return;
      armed = false;
      meanwhile(file);
    },
  });
  const out = await settle('applied');
  expect(armed).toBe(false);
  return { out, file, journal: join(data, 'journal.jsonl') };
}

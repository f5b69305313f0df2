/**
 * `linedesk pending` lists a job another live linedesk holds as held (from the run's one read of the
 * log: the recovery left it to its holder), and not a job that ended before it: what it lists is
 * what the run read, as the recovery left it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('linedesk pending of a job another linedesk holds', () => {
  it('lists its line as held for it, exit 3; nothing once its holder settled it', async () => {
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
    const [name] = (readdirSync(data, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.jsonl') && f.includes('intents'),
    );
    const file = join(data, name!);
    const dir = join(file, '..');
    const jobId = file.slice(file.lastIndexOf('/') + 1, -'.jsonl'.length);
    // Another linedesk, alive (this test's parent process), takes the job.
    const other = fileIntentLog(dir, { pid: process.ppid, start: null });
    expect(other.claim(jobId)).toBe(true);

    const held = await run('pending', '--json');
    expect(held.code).toBe(3);
    const rows = (JSON.parse(held.stdout) as { open: { username: string; state: string; detail: string }[] })
      .open;
    expect(rows).toEqual([
      expect.objectContaining({
        username: line.username,
        state: 'held',
        detail: expect.stringMatching(/^held for /),
      }),
    ]);

    // Its holder ends it: nothing open is listed.
    other.end(jobId);
    const after = await run('pending', '--json');
    expect(JSON.parse(after.stdout)).toMatchObject({ open: [] });
    expect(after.code).toBe(0);
  }, 30_000);
});

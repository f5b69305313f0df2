/**
 * `linedesk pending --settle` refused because the line's change is no longer open says why it is: its
 * job ended meanwhile (already settled: the journal has its outcome) or is no longer in the intent log
 * (ended and dropped, or set aside) — never "held by another linedesk", which only a holder makes true.
 * Nothing is settled or written either way.
 */
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
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

/**
 * An extend whose outcome is unknown (its request never reached the service), then `pending --settle`
 * of it; while the settle's recovery checks the line (its list request), `meanwhile` runs on the job's
 * file, as another linedesk would act on it.
 */
async function settleWhile(meanwhile: (file: string) => void) {
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
  let armed = true;
  proxy.set({
    onList: () => {
      if (!armed) return;
      armed = false;
      meanwhile(file);
    },
  });
  const out = await run('pending', '--settle', line.username, '--as', 'applied', '--confirm', line.username);
  expect(armed).toBe(false);
  return { out, file, journal: join(data, 'journal.jsonl') };
}

describe('linedesk pending --settle of a change no longer open', () => {
  it('its job ended meanwhile: said already settled, not "held by another linedesk"', async () => {
    const { out, file, journal } = await settleWhile((f) => {
      // Another linedesk settled it and ended its job (its file kept a while as ended).
      fileIntentLog(join(f, '..')).end(f.slice(f.lastIndexOf('/') + 1, -'.jsonl'.length));
    });
    expect(existsSync(`${file}.settled`)).toBe(true);
    expect(out.code).toBe(1);
    expect(out.stderr).not.toMatch(/held by/);
    expect(out.stderr).toMatch(/already settled/);
    expect(out.stderr).toMatch(/nothing was settled/);
    expect(readFileSync(journal, 'utf8')).not.toMatch(/settled by the user/);
  }, 30_000);

  it('its job no longer in the intent log (set aside): said so, not "held by another linedesk"', async () => {
    const { out, journal } = await settleWhile((f) => renameSync(f, `${f}.damaged-test`));
    expect(out.code).toBe(1);
    expect(out.stderr).not.toMatch(/held by/);
    expect(out.stderr).toMatch(/no longer in the intent log/);
    expect(out.stderr).toMatch(/nothing was settled/);
    expect(readFileSync(journal, 'utf8')).not.toMatch(/settled by the user/);
  }, 30_000);
});

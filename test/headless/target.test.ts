/**
 * Which service a command runs on, and what it says when the choice is unusable: never the key,
 * even when the key is where a URL or a profile name should be; the field named.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const CANARY = 'lds_canaryKEY7f3a9c1e5b2d0000';

describe('the target of a command', () => {
  it('a key given as the base URL (flag or environment) or as the profile is never repeated', async () => {
    const home = homeDirs();
    const env = { ...home, LINEDESK_API_KEY: CANARY };
    const runs = [
      await headless(['account', '--base-url', CANARY, '--json'], { env }),
      await headless(['account', '--base-url', CANARY], { env }),
      await headless(['account'], { env: { ...env, LINEDESK_BASE_URL: CANARY } }),
      await headless(['account', '--json'], { env: { ...env, LINEDESK_BASE_URL: `ftp:${CANARY}` } }),
      await headless(['account'], { env: { ...env, LINEDESK_PROFILE: CANARY } }),
    ];
    for (const r of runs) {
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).not.toContain(CANARY);
    }
    expect(JSON.parse(runs[0]!.stderr).error).toMatchObject({ code: 'config', path: ['base-url'] });
    expect(runs[0]!.stderr).toContain('--base-url is not a valid URL');
    expect(runs[2]!.stderr).toContain('LINEDESK_BASE_URL is not a valid URL');
    expect(runs[3]!.stderr).toContain('LINEDESK_BASE_URL must start with https://');
    expect(runs[4]!.stderr).toContain('LINEDESK_PROFILE holds an API key');
  });

  it("the sandbox is always said, and named in a change's JSON; a change sent to it by default is refused where profiles exist", async () => {
    // No config at all: a newcomer's demo runs on the sandbox, said on stderr (not a terminal).
    const home = homeDirs();
    const lines = await headless(['lines', '--type', 'premium', '--ndjson', '--limit', '1'], { env: home });
    expect(lines.code).toBe(0);
    expect(lines.stderr).toContain('On the embedded sandbox: nothing real is charged');
    const { username } = JSON.parse(lines.stdout);
    const demo = await headless(['extend', username, '--yes', '--json'], { env: home });
    expect(demo.code).toBe(0);
    expect(demo.stderr).toContain('On the embedded sandbox');
    expect(JSON.parse(demo.stdout).target).toEqual({ kind: 'sandbox', label: 'SANDBOX' });

    // A config with a profile but none chosen (LINEDESK_PROFILE went missing): quotes run, sends do not.
    const { sb } = await sandbox({ lines: 5 });
    mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true });
    writeFileSync(
      join(home.LINEDESK_CONFIG_DIR, 'config.json'),
      JSON.stringify({
        version: 1,
        defaultProfile: null,
        profiles: { shop: { baseUrl: sb.baseUrl, apiKey: DEMO_KEY } },
      }),
      { mode: 0o600 },
    );
    const quote = await headless(['extend', username, '--json'], { env: home });
    expect(quote.code).toBe(4);
    expect(JSON.parse(quote.stdout).target.kind).toBe('sandbox');
    const cron = await headless(['extend', username, '--yes', '--json'], { env: home });
    expect(cron.code).toBe(2);
    const err = JSON.parse(cron.stderr.trimEnd().split('\n').at(-1)!).error;
    expect(err.message).toMatch(/--profile.*LINEDESK_PROFILE.*--sandbox/);
    expect(cron.stdout).toBe('');
    // Chosen on purpose, it runs.
    const chosen = await headless(['extend', username, '--yes', '--sandbox', '--json'], { env: home });
    expect(chosen.code).toBe(0);
  });

  it('a key with a line break or a control character: exit 2 naming where it came from, never the key', async () => {
    const { sb } = await sandbox({ lines: 1 });
    const home = homeDirs();
    for (const bad of [`${CANARY}\n`, `${CANARY}\r`, `${CANARY}\u0007`]) {
      const r = await headless(['account', '--json'], {
        env: { ...home, LINEDESK_BASE_URL: sb.baseUrl, LINEDESK_API_KEY: bad },
      });
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).not.toContain(CANARY);
      expect(JSON.parse(r.stderr).error.message).toMatch(
        /^LINEDESK_API_KEY holds a character an API key cannot have/,
      );
    }
    mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true });
    writeFileSync(
      join(home.LINEDESK_CONFIG_DIR, 'config.json'),
      JSON.stringify({
        version: 1,
        defaultProfile: null,
        profiles: { shop: { baseUrl: sb.baseUrl, apiKey: `${CANARY}\n` } },
      }),
      { mode: 0o600 },
    );
    const p = await headless(['account', '--profile', 'shop', '--json'], { env: home });
    expect(p.code).toBe(2);
    expect(JSON.parse(p.stderr).error).toMatchObject({ path: ['profile'] });
    expect(p.stderr).toContain('The API key of profile \\"shop\\" holds');
    expect(p.stdout + p.stderr).not.toContain(CANARY);
  });
});

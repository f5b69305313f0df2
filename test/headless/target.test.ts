/**
 * Which service a command runs on, and what it says when the choice is unusable: never the key,
 * even when the key is where a URL or a profile name should be; the field named.
 */
import { describe, expect, it } from 'vitest';
import { headless, homeDirs } from '../helpers/headless';

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
});

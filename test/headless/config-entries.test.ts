/**
 * Issue 23: every local file is validated on read; a bad entry is named and skipped, never fatal. A
 * config with one broken profile still runs the good one, and says which entry was left out.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

describe('a config with a bad entry', () => {
  it('runs on the good profile and names the entry left out', async () => {
    const env = await sandbox({ lines: 5 });
    const home = homeDirs();
    mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home.LINEDESK_CONFIG_DIR, 'config.json'),
      JSON.stringify({
        version: 1,
        defaultProfile: 'shop',
        profiles: { shop: { baseUrl: env.sb.baseUrl, apiKey: DEMO_KEY }, old: { baseUrl: 7 } },
        lowBalance: 'many',
      }),
      { mode: 0o600 },
    );
    const r = await headless(['account', '--json'], { env: { ...home, NO_COLOR: '' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).credits).toBeTypeOf('number');
    expect(r.stderr).toMatch(/profiles\.old: .*left out/);
    expect(r.stderr).toMatch(/lowBalance: .*left out/);
    expect(r.stderr).not.toMatch(/sandbox/i);
  });
});

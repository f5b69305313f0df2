/**
 * `linedesk lines --view NAME`: the saved view's filter, search and sort (options given override
 * them), its columns for the table; JSON stays whole records. An unknown name is a usage error (2)
 * that lists the views there are; a bad view in the config is named and skipped, never fatal.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeValues } from '../../src/headless/complete-values';
import { completionScript } from '../../src/headless/completion';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

/** A sandbox and a config of its own (both are removed after each test by the helpers). */
async function setup(): Promise<NodeJS.ProcessEnv> {
  const { sb } = await sandbox({ lines: 40 });
  const home = homeDirs();
  mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(home.LINEDESK_CONFIG_DIR, 'config.json'),
    JSON.stringify({
      version: 1,
      defaultProfile: null,
      profiles: {},
      views: {
        held: { status: 'suspended', sort: 'username:desc', columns: ['status', 'username', 'expiry'] },
        broken: { type: 'gold' },
      },
    }),
    { mode: 0o600 },
  );
  return envFor(sb.baseUrl, DEMO_KEY, home);
}

const headerOf = (out: string) => out.split('\n').find((l) => l.includes('USERNAME')) ?? '';

describe('linedesk lines --view', () => {
  it('prints the view’s lines with its columns in its order; the bad view is named on stderr', async () => {
    const env = await setup();
    const r = await headless(['lines', '--view', 'held'], { env });
    expect(r.code).toBe(0);
    const header = headerOf(r.stdout).trim();
    expect(header.split(/\s+/)).toEqual(['STATUS', 'USERNAME', 'EXPIRES']);
    const rows = r.stdout.trim().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((l) => l.startsWith('suspended'))).toBe(true);
    const names = rows.map((l) => l.split(/\s+/)[1]!);
    expect(names).toEqual([...names].sort().reverse());
    expect(r.stderr).toMatch(
      /View "broken": type: expected one of all, premium, trial; the view is left out/,
    );
    expect(r.stderr.split('View "broken"').length).toBe(2); // said once
  });

  it('an option given overrides the view; JSON keeps whole records', async () => {
    const env = await setup();
    const r = await headless(['lines', '--view', 'held', '--sort', 'username', '--json'], { env });
    expect(r.code).toBe(0);
    const { lines } = JSON.parse(r.stdout);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l: { enabled: boolean }) => !l.enabled)).toBe(true);
    expect(Object.keys(lines[0])).toContain('label');
    const names = lines.map((l: { username: string }) => l.username);
    expect(names).toEqual([...names].sort());
  });

  it('an unknown view (or one left out as bad) is a usage error that lists the known views', async () => {
    const env = await setup();
    for (const name of ['nope', 'broken']) {
      const r = await headless(['lines', '--view', name], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`--view: no view "${name}" (known: default, held)`);
    }
    const json = await headless(['lines', '--view', 'nope', '--json'], { env });
    expect(json.code).toBe(2);
    // The left-out view is said first, in words; the error follows as JSON.
    expect(JSON.parse(json.stderr.trim().split('\n').at(-1)!)).toMatchObject({
      error: { code: 'usage', path: ['view'] },
    });
  });

  it('the shells complete --view from the config’s good views', async () => {
    const env = await setup();
    const path = join(String(env.LINEDESK_CONFIG_DIR), 'config.json');
    expect(completeValues('views', path)).toEqual(['held']);
    for (const shell of ['bash', 'zsh', 'fish'] as const)
      expect(completionScript(shell)).toContain('__complete views');
  });
});

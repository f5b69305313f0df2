/**
 * A command reads the config file once at its start and passes what it read on (the target choice,
 * the connection's files, the settings, the templates, the hold window): it used to read it six
 * times on the way to one request. Counted on the file system: `readFileSync` of the config path.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const reads = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('node:fs', async (original) => {
  const m = await original<typeof import('node:fs')>();
  const readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (typeof path === 'string') reads.paths.push(path);
    return (m.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof m.readFileSync;
  return { ...m, default: { ...m, readFileSync }, readFileSync };
});

function configWithProfiles(baseUrl: string) {
  const home = homeDirs();
  fs.mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true, mode: 0o700 });
  const path = join(home.LINEDESK_CONFIG_DIR, 'config.json');
  fs.writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      defaultProfile: 'shop',
      profiles: {
        shop: { baseUrl, apiKey: DEMO_KEY },
        other: { baseUrl, apiKey: 'another-key-on-the-same-panel' },
      },
      holdMinutes: 15,
      renewals: { withinDays: 10, expiredDays: 20 },
      lowBalance: {},
      templates: [{ id: 'hello', name: 'Hello', body: 'Hi {USERNAME}' }],
    }),
    { mode: 0o600 },
  );
  return { home, path };
}

describe('the config is read once per command', () => {
  it('account --json on a config with profiles reads the config file exactly once', async () => {
    const env = await sandbox({ lines: 5 });
    const { home, path } = configWithProfiles(env.sb.baseUrl);
    reads.paths = [];
    const r = await headless(['account', '--json'], { env: { ...home, NO_COLOR: '' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).lines_count).toBe(5);
    expect(reads.paths.filter((p) => p === path)).toHaveLength(1);
  });

  it('so do renewals (the saved window) and message (the templates), and the saved window is used', async () => {
    const env = await sandbox({ lines: 5 });
    const { home, path } = configWithProfiles(env.sb.baseUrl);
    const line = (await env.client.listLines({ limit: 1 })).lines[0]!;
    reads.paths = [];
    const renewals = await headless(['renewals', '--json'], { env: { ...home, NO_COLOR: '' } });
    expect(renewals.code).toBe(0);
    expect(JSON.parse(renewals.stdout).window).toEqual({ withinDays: 10, expiredDays: 20 });
    expect(reads.paths.filter((p) => p === path)).toHaveLength(1);
    reads.paths = [];
    const message = await headless(['message', 'hello', line.username, '--json'], {
      env: { ...home, NO_COLOR: '' },
    });
    expect(message.code).toBe(0);
    expect(JSON.parse(message.stdout).message).toBe(`Hi ${line.username}`);
    expect(reads.paths.filter((p) => p === path)).toHaveLength(1);
  });
});

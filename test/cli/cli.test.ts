import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client';
import { parseCli } from '../../src/cli-args';
import { BUNDLE, ensureBundle, runCli, spawnSandbox } from '../helpers/bundle';

describe('command line', () => {
  it('--help lists every flag and environment variable', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    for (const word of [
      '--sandbox',
      '--profile',
      'LINEDESK_PROFILE',
      'LINEDESK_CONFIG_DIR',
      '--base-url',
      '--read-only',
      '--version',
      'LINEDESK_BASE_URL',
      'LINEDESK_API_KEY',
      'NO_COLOR',
      'Examples',
    ]) {
      expect(r.stdout).toContain(word);
    }
  });

  it('--version prints the package version', () => {
    const r = runCli(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^linedesk \d+\.\d+\.\d+\n$/);
  });

  it('an unknown flag or a bad value: a clear message and exit code 2', () => {
    const a = runCli(['--frobnicate']);
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('unknown option --frobnicate');
    const b = runCli(['sandbox', '--port', 'many']);
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('--port takes a whole number');
    const c = runCli(['sandbox', '--faults', 'meteor=1']);
    expect(c.status).toBe(2);
    expect(c.stderr).toContain('unknown fault');
  });

  it('a stdout that is not a terminal gets a clear message and exit code 1', () => {
    const r = runCli([]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('needs a terminal');
  });

  it('parses the sandbox options', () => {
    expect(
      parseCli(['sandbox', '--port', '0', '--lines', '5', '--credits', '7', '--rate-limit', '3', '--json']),
    ).toMatchObject({
      kind: 'sandbox',
      options: { port: 0, lines: 5, credits: 7, rateLimit: 3, json: true, host: '127.0.0.1', db: null },
    });
    expect(parseCli(['--sandbox', '--base-url', 'https://x'])).toMatchObject({ kind: 'error' });
    expect(parseCli(['--read-only'])).toMatchObject({
      kind: 'app',
      options: { readOnly: true, sandbox: false },
    });
    expect(parseCli(['--profile', 'shop2'])).toMatchObject({ kind: 'app', options: { profile: 'shop2' } });
    expect(parseCli(['--profile', 'a', '--sandbox'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/cannot be used together/),
    });
    expect(parseCli(['--profile', 'bad name'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/not a profile name/),
    });
    expect(parseCli(['--profile'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/needs a value/),
    });
  });
});

describe('linedesk sandbox', () => {
  it('--json prints exactly one line with baseUrl and accounts (demo first), serves, and closes on SIGTERM', async () => {
    const { child, info } = await spawnSandbox(['--lines', '7', '--credits', '33']);
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.accounts[0]).toMatchObject({ email: 'demo@sandbox.linedesk', credits: 33 });
    expect(info.accounts).toHaveLength(2);
    const client = createClient({ baseUrl: info.baseUrl, apiKey: info.accounts[0]!.apiKey });
    expect((await client.me()).lines_count).toBe(7);
    await client.close();
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('without --json prints a banner with the base URL, the demo key and how to point the app at it', async () => {
    ensureBundle();
    const child = spawn(process.execPath, [BUNDLE, 'sandbox', '--port', '0', '--db', ':memory:'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    await vi.waitFor(() => expect(out).toContain('Ctrl-C'), { timeout: 10_000, interval: 20 });
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/demo API key: lds_\S+/);
    expect(out).toMatch(/LINEDESK_BASE_URL=http\S+ LINEDESK_API_KEY=lds_\S+ linedesk/);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});

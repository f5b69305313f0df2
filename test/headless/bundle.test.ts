/**
 * The headless commands through the built bundle, as a shell runs them: exit codes, `--help`,
 * piping into `head` (EPIPE), and the key in no output.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMAND_NAMES } from '../../src/commands/spec';
import { BUNDLE, runCli, spawnSandbox } from '../helpers/bundle';
import { headless } from '../helpers/headless';

let sb: Awaited<ReturnType<typeof spawnSandbox>>;
let env: NodeJS.ProcessEnv;
let root: string;
beforeAll(async () => {
  sb = await spawnSandbox(['--lines', '2000']);
  root = mkdtempSync(join(tmpdir(), 'linedesk-bundle-'));
  env = {
    LINEDESK_DATA_DIR: join(root, 'data'),
    LINEDESK_CONFIG_DIR: join(root, 'config'),
    LINEDESK_STATE_DIR: join(root, 'state'),
    LINEDESK_BASE_URL: sb.info.baseUrl,
    LINEDESK_API_KEY: sb.info.accounts[0]!.apiKey,
  };
});
afterAll(() => {
  sb?.child.kill();
  rmSync(root, { recursive: true, force: true });
});

describe('headless commands from the shell', () => {
  it('linedesk --help lists every command; each command has --help with an example and the exit codes', async () => {
    const top = runCli(['--help']);
    expect(top.status).toBe(0);
    for (const name of COMMAND_NAMES) expect(top.stdout).toContain(`linedesk ${name} `);
    expect(top.stdout).toContain('4  not confirmed');
    const one = runCli(['extend', '--help']);
    expect(one.status).toBe(0);
    expect(one.stdout).toMatch(/Examples:\n {2}linedesk extend /);
    for (const name of COMMAND_NAMES) {
      const r = await headless([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`Examples:\\n  (\\S+ .*\\| )?.*linedesk ${name}`));
      expect(r.stdout).toContain('Exit codes:');
    }
  });

  it('exit codes: 0 done, 2 usage, 4 not confirmed, 5 unreachable; the key never printed', () => {
    const key = sb.info.accounts[0]!.apiKey;
    const account = runCli(['account', '--json'], env);
    expect(account.status).toBe(0);
    expect(JSON.parse(account.stdout).credits).toBe(1000);
    const line = JSON.parse(runCli(['lines', '--type', 'premium', '--ndjson', '--limit', '1'], env).stdout);
    const quote = runCli(['extend', line.username], env);
    expect(quote.status).toBe(4);
    expect(quote.stderr).toContain('Not sent');
    expect(runCli(['lines', '--sort', 'price'], env).status).toBe(2);
    const gone = runCli(['account'], { ...env, LINEDESK_BASE_URL: 'http://127.0.0.1:9' });
    expect(gone.status).toBe(5);
    for (const r of [account, quote, gone]) expect(r.stdout + r.stderr).not.toContain(key);
    expect(runCli(['account'], env).stdout).not.toContain('\u001b['); // piped: no colour
  });

  it('piping into head never crashes (EPIPE)', () => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${BUNDLE}" lines --ndjson | head -1; echo "status \${PIPESTATUS[0]}" >&2`,
      ],
      { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 15_000 },
    );
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout).id).toEqual(expect.any(String));
    expect(r.stderr).toContain('status 0');
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
  });

  it('Ctrl-C during a bulk job: nothing new is sent, what was charged is journalled, exit 130', async () => {
    const slow = await spawnSandbox(['--lines', '60', '--faults', 'latency=100']);
    const dir = mkdtempSync(join(tmpdir(), 'linedesk-bundle-'));
    try {
      const e = {
        ...process.env,
        LINEDESK_DATA_DIR: join(dir, 'data'),
        LINEDESK_CONFIG_DIR: join(dir, 'config'),
        LINEDESK_STATE_DIR: join(dir, 'state'),
        LINEDESK_BASE_URL: slow.info.baseUrl,
        LINEDESK_API_KEY: slow.info.accounts[0]!.apiKey,
      };
      const names = spawnSync(
        process.execPath,
        [BUNDLE, 'lines', '--type', 'premium', '--csv', '--fields', 'username', '--limit', '20'],
        {
          encoding: 'utf8',
          env: e,
        },
      )
        .stdout.split('\n')
        .slice(1, -1);
      const child = spawn(process.execPath, [BUNDLE, 'extend', '--stdin', '--yes', '--json'], { env: e });
      child.stdin.end(names.join('\n'));
      const journal = join(dir, 'data', 'journal.jsonl');
      await vi.waitFor(
        () => expect(existsSync(journal) && readFileSync(journal, 'utf8').length > 0).toBe(true),
        {
          timeout: 10_000,
          interval: 20,
        },
      );
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(130);
      const entries = readFileSync(journal, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(entries.length).toBeLessThan(20);
      const spent = entries.reduce((n, x) => n + (x.deducedCredits ?? 0), 0);
      const me = spawnSync(process.execPath, [BUNDLE, 'account', '--json'], { encoding: 'utf8', env: e });
      expect(1000 - JSON.parse(me.stdout).credits).toBe(spent);
    } finally {
      slow.child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

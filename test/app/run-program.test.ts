/**
 * A command of yours runs a program with no shell (app/run-program.ts): a line's fields reach it as
 * exact environment values, however hostile (shell syntax, quotes, newlines, escape sequences), and
 * nothing is interpreted; the API key's variable is never passed on; the program gets no terminal;
 * its output is bounded and cannot act on the terminal; a timeout stops it; the exit code is kept;
 * it never outlives linedesk, however linedesk ends (kill -9 included).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { readConfig } from '../../src/app/config';
import { type Connection, fileDeps } from '../../src/app/connection';
import { createLog } from '../../src/app/log';
import { programRunner, runProgram } from '../../src/app/run-program';
import { endText } from '../../src/domain/user-commands';
import { lineEnv } from '../../src/present/line-env';
import { createAppStore } from '../../src/store/app-store';
import { lineItem } from '../helpers/fixtures';
import { homeDirs } from '../helpers/headless';
import { DEMO_KEY, SECOND_KEY, sandbox } from '../helpers/sandbox';
import { until } from '../helpers/wait';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linedesk-run-'));
});
const savedKey = process.env.LINEDESK_API_KEY;
afterEach(() => {
  if (savedKey === undefined) delete process.env.LINEDESK_API_KEY;
  else process.env.LINEDESK_API_KEY = savedKey;
});

/** A program of the user's: a node script (node itself by absolute path, so PATH plays no part). */
function script(body: string): { program: string; args: string[] } {
  const file = join(dir, 'prog.cjs');
  writeFileSync(file, body);
  return { program: process.execPath, args: [file] };
}

const canary = () => join(dir, 'pwned');
/** Field values a server (or a note) could hold, each a shell attack were it ever parsed by one. */
const hostileValues = () => [
  `a; rm -rf ${dir} #`,
  `$(touch ${canary()})`,
  `\`touch ${canary()}\``,
  `it's "quoted" \\ back`,
  'two\nlines\r\nand CR',
  '\u001b]52;c;aGk=\u0007\u001b[2J esc',
  "' || touch pwned || '",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's expansion, meant literally
  '%PATH% ${HOME} $HOME',
];

const line = (username: string, password: string, label: string): LineListItem =>
  lineItem({
    id: '42; echo id',
    username,
    password,
    label,
    connections: 2,
    exp_date: { raw: '2026-12-24 00:00:00', ms: Date.UTC(2026, 11, 24) },
  });

describe('a program of yours', () => {
  it('gets every field as an exact environment value, nothing shell-interpreted; never the API key', async () => {
    process.env.LINEDESK_API_KEY = 'secret-api-key-123';
    const out = join(dir, 'env.json');
    const prog = script(
      `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ env: process.env, argv: process.argv.slice(2), tty: !!process.stdin.isTTY }));`,
    );
    for (const [i, hostile] of hostileValues().entries()) {
      const env = lineEnv(line(hostile, `pw ${hostile}`, hostile), {
        nowMs: Date.UTC(2026, 11, 20),
        note: { name: hostile, phone: '+1 555 $(id)', text: `note ${hostile}`, updatedAt: '' },
      });
      const r = await runProgram({
        program: prog.program,
        args: [...prog.args, hostile, '$LINEDESK_USERNAME'],
        env,
        timeoutMs: 10_000,
      });
      expect(r.error, `run ${i}`).toBeNull();
      expect(r.exitCode).toBe(0);
      const seen = JSON.parse(readFileSync(out, 'utf8'));
      expect(seen.env.LINEDESK_USERNAME, `run ${i}`).toBe(hostile);
      expect(seen.env.LINEDESK_PASSWORD).toBe(`pw ${hostile}`);
      expect(seen.env.LINEDESK_LABEL).toBe(hostile);
      expect(seen.env.LINEDESK_NOTE).toBe(`note ${hostile}`);
      expect(seen.env.LINEDESK_NOTE_NAME).toBe(hostile);
      expect(seen.env.LINEDESK_NOTE_PHONE).toBe('+1 555 $(id)');
      expect(seen.env.LINEDESK_ID).toBe('42; echo id');
      expect(seen.env.LINEDESK_EXP_DATE).toBe('2026-12-24');
      expect(seen.env.LINEDESK_DAYS_LEFT).toBe('4');
      expect(seen.env.LINEDESK_STATUS).toBe('expiring');
      // The arguments are literal: one argv element each, no expansion.
      expect(seen.argv).toEqual([hostile, '$LINEDESK_USERNAME']);
      expect(seen.env.LINEDESK_API_KEY).toBeUndefined();
      expect(JSON.stringify(seen.env)).not.toContain('secret-api-key-123');
      expect(seen.tty).toBe(false);
    }
    expect(existsSync(canary())).toBe(false);
    expect(existsSync(dir)).toBe(true);
  });

  it('never gets a key linedesk knows, under whatever name the environment holds it', async () => {
    process.env.SHOP_KEY_FOR_CRM = 'profile-key-0123456789';
    process.env.CRM_AUTH = 'Bearer profile-key-0123456789';
    process.env.UNRELATED_FOR_TEST = 'kept';
    try {
      const out = join(dir, 'env.json');
      const prog = script(
        `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env));`,
      );
      const r = await programRunner(() => ['profile-key-0123456789'])({
        ...prog,
        env: {},
        timeoutMs: 10_000,
      });
      expect(r.exitCode).toBe(0);
      const seen = JSON.parse(readFileSync(out, 'utf8'));
      expect(JSON.stringify(seen)).not.toContain('profile-key-0123456789');
      expect(seen.UNRELATED_FOR_TEST).toBe('kept');
    } finally {
      delete process.env.SHOP_KEY_FOR_CRM;
      delete process.env.CRM_AUTH;
      delete process.env.UNRELATED_FOR_TEST;
    }
  });

  it("never gets a key of a profile the config check left out (a bad entry's key is a key all the same)", async () => {
    // One good profile; three left out when read — no base URL, a misspelt key field, a name that
    // is not one — each still holding a real key in the file.
    const cfg = join(dir, 'config.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        version: 1,
        defaultProfile: 'good',
        profiles: {
          good: { baseUrl: 'https://good.example', apiKey: 'good-key-0123456789' },
          nourl: { apiKey: 'nourl-key-0123456789' },
          typo: { baseUrl: 'https://typo.example', api_key: 'typo-key-0123456789' },
          'Not A Name': { baseUrl: 'https://x.example', apiKey: 'badname-key-0123456789' },
        },
      }),
      { mode: 0o600 },
    );
    const read = readConfig(cfg);
    expect(Object.keys(read.config?.profiles ?? {})).toEqual(['good']);
    expect(read.problems).toHaveLength(3);
    const keys = ['good', 'nourl', 'typo', 'badname'].map((k) => `${k}-key-0123456789`);
    keys.forEach((k, i) => {
      process.env[`EXPORTED_FOR_TEST_${i}`] = k;
      process.env[`EXPORTED_AUTH_FOR_TEST_${i}`] = `Bearer ${k}`;
    });
    try {
      const prog = script('console.log(JSON.stringify(process.env));');
      const r = await programRunner(() => read.keys)({ ...prog, env: {}, timeoutMs: 10_000 });
      expect(r.exitCode).toBe(0);
      expect(r.output).toContain('"PATH"');
      for (const k of keys) expect(r.output).not.toContain(k);
    } finally {
      keys.forEach((_, i) => {
        delete process.env[`EXPORTED_FOR_TEST_${i}`];
        delete process.env[`EXPORTED_AUTH_FOR_TEST_${i}`];
      });
    }
  });

  it('its output cannot act on the terminal: sequences removed whole, controls marked, bounded', async () => {
    const prog = script(
      `process.stdout.write('hello \\u001b]52;c;ZXZpbA==\\u0007world\\u001b[2J\\u001b[31mred\\u001b[0m\\r\\nnext\\u0008\\u009b1;1H\\n'); process.stderr.write('oops\\n'); process.exit(3);`,
    );
    const r = await runProgram({ ...prog, env: {}, timeoutMs: 10_000 });
    expect(r.exitCode).toBe(3);
    expect(endText(r, 10_000)).toBe('exit 3');
    expect(r.output).toContain('hello world');
    expect(r.output).toContain('red\nnext');
    expect(r.output).toContain('oops');
    expect(r.output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.output).not.toContain('ZXZpbA');

    const big = script(`process.stdout.write('x'.repeat(1_000_000));`);
    const cut = await runProgram({ ...big, env: {}, timeoutMs: 10_000 }, 1000);
    expect(cut.cut).toBe(true);
    expect(cut.output).toHaveLength(1000);
    expect(cut.exitCode).toBe(0);
  });

  it('ends when the program exits, even when a child it left behind still holds its output', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const prog = script(
      `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); c.unref(); console.log('parent done');`,
    );
    try {
      const r = await runProgram({ ...prog, env: {}, timeoutMs: 60_000 });
      expect(r.exitCode).toBe(0);
      expect(r.timedOut).toBe(false);
      expect(r.output).toContain('parent done');
    } finally {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  }, 20_000);

  it('reads no keys: stdin is not the terminal and ends at once', async () => {
    const prog = script(
      `let n = 0; process.stdin.on('data', (d) => (n += d.length)); process.stdin.on('end', () => { console.log('stdin ended after', n); });`,
    );
    const r = await runProgram({ ...prog, env: {}, timeoutMs: 10_000 });
    expect(r.output).toContain('stdin ended after 0');
  });

  it('a timeout stops it and says so; Esc (an abort) stops it; a missing program is named', async () => {
    const hang = script('setInterval(() => {}, 1000); console.log("started");');
    const t = await runProgram({ ...hang, env: {}, timeoutMs: 300 });
    expect(t.timedOut).toBe(true);
    expect(endText(t, 300)).toBe('stopped after 300 ms (its timeout)');
    expect(t.output).toContain('started');
    const ctl = new AbortController();
    const p = runProgram({ ...hang, env: {}, timeoutMs: 60_000, signal: ctl.signal });
    ctl.abort();
    const a = await p;
    expect(a.stopped).toBe(true);
    expect(endText(a, 60_000)).toBe('stopped (its output was closed)');
    const missing = await runProgram({
      program: join(dir, 'no-such-program'),
      args: [],
      env: {},
      timeoutMs: 1000,
    });
    expect(missing.error).toMatch(/was not found/);
    // A program's name (the config's text) with an escape sequence is shown harmless when it fails.
    const odd = await runProgram({
      program: join(dir, 'no-such-\u001b]0;pwned\u0007-program'),
      args: [],
      env: {},
      timeoutMs: 1000,
    });
    expect(odd.error).toMatch(/was not found/);
    expect(odd.error).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(endText(missing, 1000)).toMatch(/^not started: /);
  });
});

/** Whether a process is gone (a zombie nobody reaped yet counts as gone: it runs nothing). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** A program that leaves a child in its group ignoring SIGTERM (its pid in `pidFile`), then hangs. */
const stubbornChild = (pidFile: string, parentIgnores = false) =>
  `const c = require('child_process').spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
c.unref();
${parentIgnores ? "process.on('SIGTERM', () => {});" : ''}
require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
setInterval(() => {}, 1000);`;

describe('a runaway program', () => {
  it('is killed with its whole group on a timeout, a child ignoring SIGTERM included', async () => {
    const pidFile = join(dir, 'child.pid');
    const prog = script(stubbornChild(pidFile));
    let pid = 0;
    try {
      const r = await runProgram({ ...prog, env: {}, timeoutMs: 500 });
      expect(r.timedOut).toBe(true);
      pid = Number(readFileSync(pidFile, 'utf8'));
      // The program ended on SIGTERM; its child did not: the SIGKILL after the grace must still come.
      await until(() => gone(pid), 15_000);
    } finally {
      if (pid && !gone(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 20_000);

  it('does not outlive linedesk: its group is killed when linedesk exits, SIGTERM ignored or not', async () => {
    const pidFile = join(dir, 'child.pid');
    const prog = script(stubbornChild(pidFile, true));
    const host = join(dir, 'host.ts');
    writeFileSync(
      host,
      `import { existsSync } from 'node:fs';
import { runProgram } from ${JSON.stringify(join(process.cwd(), 'src/app/run-program.ts'))};
void runProgram({ program: ${JSON.stringify(prog.program)}, args: ${JSON.stringify(prog.args)}, env: {}, timeoutMs: 60_000 });
const t = setInterval(() => { if (existsSync(${JSON.stringify(pidFile)})) { clearInterval(t); setTimeout(() => process.exit(0), 100); } }, 10);`,
    );
    const { spawnSync } = await import('node:child_process');
    let pid = 0;
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', host], { timeout: 15_000, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      pid = Number(readFileSync(pidFile, 'utf8'));
      await until(() => gone(pid), 10_000);
    } finally {
      if (pid && !gone(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 30_000);

  it('does not outlive linedesk killed with SIGKILL (no handler of linedesk runs): its group is killed', async () => {
    // The program writes its pid and its child's (the child ignores SIGTERM), then hangs; so does the
    // program. Nothing of linedesk runs after a SIGKILL: something else must notice it is gone.
    const pidFile = join(dir, 'pids');
    const prog = script(
      `const c = require('child_process').spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
c.unref();
process.on('SIGTERM', () => {});
require('fs').writeFileSync(${JSON.stringify(pidFile)}, process.pid + ' ' + c.pid);
setInterval(() => {}, 1000);`,
    );
    const host = join(dir, 'host.ts');
    writeFileSync(
      host,
      `import { runProgram } from ${JSON.stringify(join(process.cwd(), 'src/app/run-program.ts'))};
void runProgram({ program: ${JSON.stringify(prog.program)}, args: ${JSON.stringify(prog.args)}, env: {}, timeoutMs: 300_000 });
setInterval(() => {}, 1000);`,
    );
    const { spawn } = await import('node:child_process');
    const linedesk = spawn(process.execPath, ['--import', 'tsx', host], { stdio: 'ignore' });
    let pids: number[] = [];
    try {
      await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes(' '), 15_000);
      pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
      expect(pids.every((p) => !gone(p))).toBe(true);
      linedesk.kill('SIGKILL');
      await until(() => pids.every(gone), 10_000);
    } finally {
      linedesk.kill('SIGKILL');
      for (const p of pids) if (!gone(p)) process.kill(p, 'SIGKILL');
    }
  }, 30_000);
});

describe('a profile added during the session', () => {
  it('its key is kept from a program of yours at once, under whatever name the environment holds it', async () => {
    const env = await sandbox({ lines: 5 });
    const home = homeDirs();
    mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true, mode: 0o700 });
    const path = join(home.LINEDESK_CONFIG_DIR, 'config.json');
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        defaultProfile: 'shop',
        profiles: { shop: { baseUrl: env.sb.baseUrl, apiKey: DEMO_KEY } },
      }),
      { mode: 0o600 },
    );
    const conn: Connection = {
      client: env.client,
      profile: 'shop',
      target: { id: `${env.sb.baseUrl}#x`, kind: 'remote', label: 'shop', baseUrl: env.sb.baseUrl },
      close: async () => {},
    };
    const log = createLog(join(home.LINEDESK_STATE_DIR, 'linedesk.log'));
    const files = fileDeps(conn, log, {
      dataDir: home.LINEDESK_DATA_DIR,
      configPath: path,
      config: readConfig(path),
      apiKey: DEMO_KEY,
    });
    const store = createAppStore({ client: env.client, target: conn.target, ...files });
    // `:profile add other`, its URL and key typed, Enter: the account is checked and saved.
    const s = () => store.getState();
    s().profileCommand('add other');
    s().setProfileField('baseUrl', env.sb.baseUrl);
    s().setProfileField('apiKey', SECOND_KEY);
    await s().submitProfileForm();
    expect(s().profileForm).toBeNull();
    expect(readConfig(path).keys).toContain(SECOND_KEY);
    process.env.OTHER_TOOL_TOKEN_FOR_TEST = SECOND_KEY;
    process.env.UNRELATED_FOR_TEST = 'kept';
    try {
      const prog = script('console.log(JSON.stringify(process.env));');
      const r = await programRunner(files.keysToHide)({ ...prog, env: {}, timeoutMs: 10_000 });
      expect(r.exitCode).toBe(0);
      expect(r.output).toContain('"UNRELATED_FOR_TEST":"kept"');
      expect(r.output).not.toContain(SECOND_KEY);
      expect(r.output).not.toContain('OTHER_TOOL_TOKEN_FOR_TEST');
    } finally {
      delete process.env.OTHER_TOOL_TOKEN_FOR_TEST;
      delete process.env.UNRELATED_FOR_TEST;
      await s().shutdown(0);
    }
  });
});

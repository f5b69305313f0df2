import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnSandbox } from '../helpers/bundle';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** Every file below a directory, recursively. */
const filesIn = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesIn(p) : [p];
  });

describe('profiles, the welcome screen and the API key', () => {
  it('welcome → connect (a wrong key says so and keeps what was typed) → add a profile → switch; the key is written nowhere', async () => {
    const { child, info } = await spawnSandbox(['--lines', '20']);
    cleanups.push(() => child.kill());
    const demo = info.accounts[0]!;
    const second = info.accounts[1]!;
    const app = spawnApp([], {}, { cols: 100, rows: 30 }, { welcome: true });
    cleanups.push(app.cleanup);
    const host = new URL(info.baseUrl).host;

    await app.waitFor((s) => s.includes('Welcome to linedesk'));
    app.write(keyBytes('down'));
    await app.waitFor((s) => s.includes('› Connect an account'));
    app.write(keyBytes('enter'));
    await app.waitFor((s) => s.includes('Base URL'));
    app.write(info.baseUrl);
    await app.waitFor((s) => s.includes(info.baseUrl));
    app.write(keyBytes('tab'));
    await app.waitFor((s) => s.includes('› API key'));
    app.write('wrong-key-0000');
    await app.waitFor((s) => s.includes('••••••••••••••'));
    app.write(keyBytes('enter'));
    await app.waitFor((s) => s.includes('✗') && /refused|not authorized/i.test(s));
    expect(app.screen()).toContain(info.baseUrl); // kept
    expect(app.screen()).not.toContain('wrong-key-0000'); // masked
    for (let i = 0; i < 14; i++) {
      app.write('\u007f');
      await app.waitFor((s) => !s.includes('•'.repeat(14 - i)));
    }
    app.write(demo.apiKey);
    await app.waitFor((s) => s.includes('•'.repeat(demo.apiKey.length)));
    app.write(keyBytes('enter'));
    await app.waitFor((s) => s.includes(demo.email) && s.includes(`default · ${host}`));

    const configFile = join(app.dir, 'config', 'config.json');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toMatchObject({ defaultProfile: 'default' });

    // Something for the journal: extend the first premium line.
    app.write(key('lines.filterType'));
    await app.waitFor((s) => s.includes('type premium') && !s.includes('loading'));
    app.write(key('line.extend'));
    await app.waitFor((s) => s.includes('Enter confirms'));
    app.write(key('action.confirm'));
    await app.waitFor((s) => s.includes('Charged'));
    app.write(key('action.cancel'));
    await app.waitFor((s) => s.includes('USERNAME'));

    // :profile add second, then :profile use second
    app.write(key('app.palette'));
    app.write('profile add second');
    await app.waitFor((s) => s.includes(':profile add second'));
    app.write(keyBytes('enter'));
    await app.waitFor((s) => s.includes('New profile') && s.includes('› Base URL'));
    app.write(info.baseUrl);
    await app.waitFor((s) => s.includes(info.baseUrl));
    app.write(keyBytes('tab'));
    await app.waitFor((s) => s.includes('› API key'));
    app.write(second.apiKey);
    await app.waitFor((s) => s.includes('•'.repeat(second.apiKey.length)));
    app.write(keyBytes('enter'));
    await app.waitFor((s) => s.includes('Profile "second" saved'));
    app.write(key('app.palette'));
    app.write('profile');
    await app.waitFor((s) => /:profile\s*$/m.test(s));
    app.write(keyBytes('enter'));
    await app.waitFor((s) => s.includes('Profiles') && s.includes(`key …${second.apiKey.slice(-4)}`));
    app.write(keyBytes('escape'));
    await app.waitFor((s) => s.includes('USERNAME'));
    app.write(key('app.palette'));
    app.write('profile use second');
    await app.waitFor((s) => s.includes(':profile use second'));
    app.write(keyBytes('enter'));
    await app.waitFor((s) => s.includes(second.email) && s.includes(`second · ${host}`));
    app.write(key('app.quit'));
    await app.waitExit();
    expect(app.exitCode()).toBe(0);

    // The canary: neither key appears on screen or in any file written, but the config itself.
    const written = filesIn(app.dir).filter((f) => f !== configFile);
    expect(written.some((f) => f.endsWith('journal.jsonl'))).toBe(true);
    expect(written.some((f) => f.endsWith('linedesk.log'))).toBe(true);
    for (const k of [demo.apiKey, second.apiKey]) {
      expect(app.output()).not.toContain(k);
      for (const f of written) expect(readFileSync(f, 'utf8'), f).not.toContain(k);
    }
  }, 60_000);

  it('a profile with plain http to a non-loopback host is refused before any connection', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'ld-cfg-'));
    const far = {
      version: 1,
      defaultProfile: 'far',
      profiles: { far: { baseUrl: 'http://panel.example.com', apiKey: 'k-0000' } },
      welcomed: true,
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(far), { mode: 0o600 });
    const app = spawnApp(['--profile', 'far'], { LINEDESK_CONFIG_DIR: configDir });
    cleanups.push(app.cleanup);
    await app.waitExit();
    expect(app.exitCode()).toBe(2);
    expect(app.output()).toMatch(/Refusing plain http to panel\.example\.com/);
    const unknown = spawnApp(['--profile', 'nope'], { LINEDESK_CONFIG_DIR: configDir });
    cleanups.push(unknown.cleanup);
    await unknown.waitExit();
    expect(unknown.exitCode()).toBe(2);
    expect(unknown.output()).toMatch(/No profile "nope".*Known: far/);
  });
});

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnApp } from '../helpers/pty';
import { until } from '../helpers/wait';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe('your keys and your commands, from the config, in a real terminal', () => {
  it('a remap and a bad entry at start; a command of yours runs with the line in its environment, its output inert', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linedesk-e2e-user-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const configDir = join(dir, 'config');
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const prog = join(dir, 'prog.cjs');
    // Prints the line it got, whether it has a terminal, and tries to write the clipboard (OSC 52).
    writeFileSync(
      prog,
      `process.stdout.write('got ' + process.env.LINEDESK_USERNAME + ' tty=' + !!process.stdin.isTTY + ' \\u001b]52;c;cHduZWQ=\\u0007end\\n');`,
    );
    const config = {
      version: 1,
      defaultProfile: null,
      profiles: {},
      welcomed: true,
      keys: { 'app.help': 'H', 'line.extend': 'u' },
      commands: [{ name: 'rec', key: 'W', scope: 'line', program: process.execPath, args: [prog] }],
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const app = spawnApp([], { LINEDESK_CONFIG_DIR: configDir, TMUX: '' }, { cols: 100, rows: 24 });
    cleanups.push(() => app.cleanup());
    await app.waitFor((s) => /of 240/.test(s));
    await app.waitFor((s) => s.includes("u is line.upgrade's key in lines"));
    app.write('W');
    await app.waitFor((s) => /got \S+ tty=false/.test(s) && s.includes(': exit 0'));
    const username = /got (\S+) tty=false/.exec(app.screen())![1]!;
    expect(app.screen()).toContain(`── ${username}: exit 0`);
    expect(app.output()).not.toMatch(/\u001b\]52;c;cHduZWQ=/);
    app.write(key('output.close'));
    await app.waitFor((s) => !s.includes('tty=false'));
    app.write('H');
    await app.waitFor((s) => s.includes('Keys — lines screen'));
    // Help lists it with the browser's keys (after them: a page or two down), paged until it shows or
    // help's last row is in view: a page key there moves nothing, so waiting for it would only time out.
    const listsRec = (s: string) => /W\s+Run rec/.test(s);
    const atHelpEnd = (s: string) => {
      const at = /Keys — .* · \d+–(\d+) of (\d+)/.exec(s);
      return !at || at[1] === at[2];
    };
    // Each page key is waited for by help's position, not by any change of the screen: the config's
    // flash going away changes it too, and a second key sent then would move a page unseen. A key
    // refused while help is drawn at its new size is pressed again. Every screen polled is looked at.
    const at = (s: string) => /Keys — .* · (\d+–\d+) of/.exec(s)?.[1];
    let seen = false;
    for (let page = 0; page < 40 && !seen && !listsRec(app.screen()) && !atHelpEnd(app.screen()); page++) {
      const from = at(app.screen());
      app.write(key('help.pageDown'));
      await app.waitFor((s) => {
        seen ||= listsRec(s);
        return at(s) !== from || s.includes('being drawn');
      });
    }
    expect(seen || listsRec(app.screen()), 'help was paged to its end without listing the command').toBe(
      true,
    );
  });

  it('a program of yours gets no key of a profile the config left out, and does not outlive linedesk killed with SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linedesk-e2e-user-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const configDir = join(dir, 'config');
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const badKey = 'left-out-profile-key-0123456789';
    // Names the variables that hold the left-out profile's key (never the key itself).
    const leaks = join(dir, 'leaks.cjs');
    writeFileSync(
      leaks,
      `const k = ${JSON.stringify(badKey)}; console.log('holding=[' + Object.keys(process.env).filter((n) => process.env[n].includes(k)).join(',') + '] done');`,
    );
    // Writes its pid, then runs until something ends it.
    const pidFile = join(dir, 'hang.pid');
    const hang = join(dir, 'hang.cjs');
    writeFileSync(
      hang,
      `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const config = {
      version: 1,
      defaultProfile: null,
      // Left out when read (no base URL): its key is still a key.
      profiles: { shop: { apiKey: badKey } },
      welcomed: true,
      commands: [
        { name: 'leaks', key: 'W', scope: 'line', program: process.execPath, args: [leaks] },
        {
          name: 'hang',
          key: 'Y',
          scope: 'line',
          program: process.execPath,
          args: [hang],
          timeoutSeconds: 600,
        },
      ],
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const app = spawnApp(
      [],
      { LINEDESK_CONFIG_DIR: configDir, TMUX: '', SHOP_KEY_FOR_CRM: badKey, CRM_AUTH: `Bearer ${badKey}` },
      { cols: 100, rows: 24 },
    );
    cleanups.push(() => app.cleanup());
    await app.waitFor((s) => /of 240/.test(s));
    app.write('W');
    await app.waitFor((s) => /holding=\[[^\]]*\] done/.test(s) && s.includes(': exit 0'));
    expect(app.screen()).toContain('holding=[] done');
    app.write(key('output.close'));
    await app.waitFor((s) => !s.includes('holding='));
    app.write('Y');
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      // A zombie nobody reaped yet runs nothing: gone (where there is a /proc to tell).
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return !existsSync('/proc/self');
      }
    };
    cleanups.push(() => alive() && process.kill(pid, 'SIGKILL'));
    expect(alive()).toBe(true);
    process.kill(app.child.pid, 'SIGKILL');
    await until(() => !alive());
  });
});

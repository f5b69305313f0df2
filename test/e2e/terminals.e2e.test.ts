import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const sessions: Array<{ cleanup: () => void }> = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.cleanup();
});

/** Every character on the screen that a C-locale terminal cannot show. */
const nonAscii = (screen: string) => [...new Set(screen.match(/[^\u0000-\u007e]/gu) ?? [])];

describe('terminals that are not what we assumed (issue 23)', () => {
  it('LC_ALL=C: the browser, a mark, the extend dialog and the help are drawn in ASCII only', async () => {
    const app = spawnApp([], { LC_ALL: 'C', LANG: 'C' });
    sessions.push(app);
    await app.waitFor((s) => s.includes('[SANDBOX]') && / of 240/.test(s));
    app.write(key('lines.mark'));
    await app.waitFor((s) => s.includes('1 marked'));
    expect(nonAscii(app.screen())).toEqual([]);
    app.write(key('line.extend'));
    await app.waitFor((s) => /Extend/.test(s) && s.includes('+--'));
    expect(nonAscii(app.screen())).toEqual([]);
    app.write(key('action.cancel'));
    await app.waitFor((s) => !s.includes('+--'));
    app.write(key('app.help'));
    await app.waitFor((s) => /help/i.test(s) && s.includes('Esc'));
    expect(nonAscii(app.screen())).toEqual([]);
    expect(nonAscii(app.output().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))).toEqual([]);
  });

  it('--ascii forces ASCII on a UTF-8 terminal; the welcome screen too', async () => {
    const app = spawnApp(['--ascii'], { LANG: 'C.UTF-8', LC_ALL: '' }, undefined, { welcome: true });
    sessions.push(app);
    await app.waitFor((s) => s.includes('Welcome to linedesk'));
    expect(app.screen()).toContain('> Try the sandbox');
    expect(nonAscii(app.screen())).toEqual([]);
  });

  it('a config directory that is a file: the app says so and how to fix it, and never starts', async () => {
    const probe = spawnApp(['--version']);
    sessions.push(probe);
    await probe.waitExit();
    const file = join(probe.dir, 'not-a-dir');
    writeFileSync(file, 'x');
    const app = spawnApp([], { LINEDESK_CONFIG_DIR: file });
    sessions.push(app);
    await app.waitExit();
    expect(app.exitCode()).toBe(2);
    expect(app.output()).toContain('is a file, not a directory');
    expect(app.output()).toContain('LINEDESK_CONFIG_DIR');
    expect(app.output()).not.toContain('Welcome to linedesk');
  });
});

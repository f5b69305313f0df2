import { afterEach, describe, expect, it } from 'vitest';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes, visibleUsernames } from '../helpers/app';
import { spawnSandbox } from '../helpers/bundle';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const sessions: Array<{ cleanup: () => void }> = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.cleanup();
});

describe('the built app in a real terminal', () => {
  it('starts on the embedded sandbox, pages, searches, opens a line, quits and restores the terminal', async () => {
    const app = spawnApp();
    sessions.push(app);
    await app.waitFor((s) => s.includes('[SANDBOX]') && /1–\d+ of 240/.test(s));
    expect(app.term.buffer.active.type).toBe('alternate');
    expect(app.screen()).toContain('demo@sandbox.linedesk');
    const rows = Number(/1–(\d+) of 240/.exec(app.screen())![1]);
    // the frame never fills the last row
    expect(app.screen().split('\n').at(-1)!.trim()).toBe('');
    app.write(key('lines.pageNext'));
    await app.waitFor((s) => s.includes(`${rows + 1}–${rows * 2} of 240`));
    app.write(key('lines.search'));
    app.write('smith');
    await app.waitFor((s) => /search: smith/.test(s));
    app.write(key('search.apply'));
    // the filtered page must have landed before Enter opens the line under the cursor
    await app.waitFor((s) => s.includes('search "smith"') && !s.includes('loading'));
    app.write(key('lines.open'));
    await app.waitFor((s) => /Line \S*smith/.test(s) && s.includes('Password'));
    app.write(key('app.back'));
    await app.waitFor((s) => s.includes('USERNAME'));
    app.write(key('app.backOrQuit'));
    await app.waitFor((s) => s.includes('again to quit'));
    app.write(key('app.backOrQuit'));
    await app.waitExit();
    expect(app.exitCode()).toBe(0);
    expect(app.term.buffer.active.type).toBe('normal');
    expect(app.output()).toContain('\u001b[?1049l');
    expect(app.output()).toContain('\u001b[?25h');
  });

  it('Ctrl-C quits from inside a text field and the terminal is restored', async () => {
    const app = spawnApp();
    sessions.push(app);
    await app.waitFor((s) => /of 240/.test(s));
    app.write(key('lines.search'));
    app.write('abc');
    app.write(key('app.quit'));
    await app.waitExit();
    expect(app.exitCode()).toBe(0);
    expect(app.term.buffer.active.type).toBe('normal');
  });

  it('SIGTERM restores the terminal', async () => {
    const app = spawnApp();
    sessions.push(app);
    await app.waitFor((s) => /of 240/.test(s));
    app.child.kill('SIGTERM');
    await app.waitExit();
    expect(app.term.buffer.active.type).toBe('normal');
  });

  it('talks to a sandbox given by LINEDESK_BASE_URL, shows its host, and never shows the key', async () => {
    const { child, info } = await spawnSandbox(['--lines', '30']);
    sessions.push({ cleanup: () => child.kill() });
    const apiKey = info.accounts[0]!.apiKey;
    const app = spawnApp(
      [],
      { LINEDESK_BASE_URL: info.baseUrl, LINEDESK_API_KEY: apiKey },
      { cols: 80, rows: 24 },
    );
    sessions.push(app);
    const host = new URL(info.baseUrl).host;
    await app.waitFor((s) => s.includes(`[${host}]`) && /of 30/.test(s));
    app.write(key('lines.open'));
    await app.waitFor((s) => s.includes('Password'));
    app.write(key('app.quit'));
    await app.waitExit();
    expect(app.output()).not.toContain(apiKey);
  });

  it('plain http to a non-loopback host is refused before anything starts', async () => {
    const app = spawnApp([], { LINEDESK_BASE_URL: 'http://panel.example.com', LINEDESK_API_KEY: 'k' });
    sessions.push(app);
    await app.waitExit();
    expect(app.exitCode()).toBe(2);
    expect(app.output()).toContain('Refusing plain http');
  });

  it('follows a resize: the page size fits the new height and the frame stays below it', async () => {
    const app = spawnApp([], {}, { cols: 100, rows: 30 });
    sessions.push(app);
    await app.waitFor((s) => /1–\d+ of 240/.test(s));
    const before = Number(/1–(\d+) of 240/.exec(app.screen())![1]);
    app.child.resize(80, 20);
    app.term.resize(80, 20);
    await app.waitFor((s) => {
      const m = /1–(\d+) of 240/.exec(s);
      return m !== null && Number(m[1]) < before;
    });
    expect(
      app
        .screen()
        .split('\n')
        .filter((l) => l.trim()).length,
    ).toBeLessThanOrEqual(19);
  });

  it('a cursor move rewrites only the rows it changes, and every frame lands where it belongs', async () => {
    const app = spawnApp([], {}, { cols: 120, rows: 40 });
    sessions.push(app);
    // Whole: the lines, and the header's runway (read after the first screen).
    await app.waitFor((s) => /1–\d+ of 240/.test(s) && !s.includes('loading') && s.includes('of renewals'));
    const layout = (s: string) => {
      const rows = s.split('\n');
      expect(rows[0]).toMatch(/^ linedesk /);
      expect(rows[2]).toMatch(/USERNAME/);
      expect(rows.at(-1)!.trim()).toBe('');
      return rows;
    };
    const first = layout(app.screen());
    const row = (n: number) => first.findIndex((l) => l.startsWith('›')) + n;
    const before = app.output().length;
    app.write(key('lines.down'));
    await app.waitFor(
      (s) => s.split('\n')[row(1)]!.startsWith('›') && !s.split('\n')[row(0)]!.startsWith('›'),
    );
    // Incremental frames (with Ink's row offset fixed in scripts/build.mjs): two rows, not the screen.
    expect(app.output().length - before).toBeLessThan(1200);
    const moved = layout(app.screen());
    expect(moved[row(0)]!.startsWith('›')).toBe(false);
    // A frame of a different shape and back: nothing stale, nothing shifted.
    app.write(key('lines.open'));
    await app.waitFor((s) => s.includes('Password'));
    app.write(key('app.back'));
    // The frame may arrive in several chunks: poll until it is whole, then it must be the same.
    await app.waitFor((s) => s === moved.join('\n'));
    layout(app.screen());
  });

  it('a key typed while the app starts is kept for it, not echoed or lost', async () => {
    const app = spawnApp();
    sessions.push(app);
    // Written before the first frame: the key must still reach the app (raw at once: not echoed, not
    // held in a line buffer). Help, not Enter: Enter opens a line only once the list is on screen,
    // and under load the first page can come after the key (a key never acts on what was not shown).
    await app.waitFor(() => app.output().includes('\u001b[?1049h'));
    app.write(key('app.help'));
    await app.waitFor((s) => s.includes('Keys — lines screen'));
    expect(app.screen()).not.toMatch(/^\?/m);
  });

  it('starts at the top of the screen wherever the shell left the cursor', async () => {
    const app = spawnApp([], {}, { cols: 100, rows: 30 }, { welcome: true });
    sessions.push(app);
    app.term.write('$ npm start\r\n'.repeat(8)); // a shell's output before the app's
    await app.waitFor((s) => s.includes('Welcome to linedesk'));
    const rows = app.screen().split('\n');
    expect(rows.findIndex((l) => l.includes('Welcome to linedesk'))).toBeLessThan(3);
  });

  it('when the embedded sandbox cannot start it says why, with no stack trace', async () => {
    const app = spawnApp([], { LINEDESK_DATA_DIR: '/dev/null/nowhere' });
    sessions.push(app);
    await app.waitExit();
    expect(app.exitCode()).toBe(2);
    // The data directory is checked before the sandbox is started (issue 23): the path and the fix.
    expect(app.output()).toMatch(
      /data directory \/dev\/null\/nowhere cannot be created: \/dev\/null is a file/,
    );
    expect(app.output()).toContain('LINEDESK_DATA_DIR');
    expect(app.output()).not.toMatch(/\n\s+at /);
  });

  it('a pasted list of usernames in the browser marks them and names the one not found', async () => {
    const app = spawnApp();
    sessions.push(app);
    await app.waitFor((s) => /1–\d+ of 240/.test(s));
    const names = visibleUsernames(app.screen()).slice(2, 5);
    expect(names).toHaveLength(3);
    app.write(`\u001b[200~${names.join('\r\n')}\r\nnobody.here.0001\r\u001b[201~`);
    await app.waitFor((s) => s.includes('not found: nobody.here.0001') && s.includes('3 marked'));
    expect(app.screen()).toContain('Marked 3 of 4 pasted');
    app.write(key('app.quit'));
    await app.waitExit();
  }, 30_000);

  it('a paste with newlines into the username field is text: nothing is confirmed, nothing created', async () => {
    const app = spawnApp();
    sessions.push(app);
    await app.waitFor((s) => /1–\d+ of 240/.test(s));
    expect(app.output()).toContain('\u001b[?2004h'); // bracketed paste on
    app.write(key('line.create'));
    await app.waitFor((s) => s.includes('New line —'));
    app.write(key('form.next'));
    app.write(key('form.next'));
    const body = `user${'x'.repeat(60_000)}\r\r\r`;
    app.write(`\u001b[200~${body}\u001b[201~`);
    await app.waitFor((s) => s.includes('Pasted the first'), 15_000);
    expect(app.screen()).toContain('New line —'); // the form is still open: nothing was confirmed
    app.write(key('form.cancel'));
    await app.waitFor((s) => /1–\d+ of 240/.test(s)); // still 240 lines: nothing created
    app.write(key('app.quit'));
    await app.waitExit();
    expect(app.output()).toContain('\u001b[?2004l'); // and off again on the way out
  }, 30_000);
});

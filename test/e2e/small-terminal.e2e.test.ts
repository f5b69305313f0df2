import { afterEach, describe, expect, it } from 'vitest';
import { type CommandId, command } from '../../src/commands/keymap';
import { MIN_COLUMNS, MIN_ROWS } from '../../src/present/min-size';
import { keyBytes } from '../helpers/app';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const sessions: Array<{ cleanup: () => void }> = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.cleanup();
});

describe('a terminal too small for the layout, in a real terminal (issue 28)', () => {
  it('says the size it needs in one sentence, ignores screen keys, and comes back as it was', async () => {
    const app = spawnApp([], {}, { cols: 100, rows: 30 });
    sessions.push(app);
    const resize = (cols: number, rows: number) => {
      app.term.resize(cols, rows);
      app.child.resize(cols, rows);
    };
    await app.waitFor((s) => /1–\d+ of 240/.test(s));
    const cursorRow = () =>
      app
        .screen()
        .split('\n')
        .findIndex((r) => r.startsWith('›'));
    const first = cursorRow();
    app.write(key('lines.down'));
    await app.waitFor(() => cursorRow() === first + 1);
    const cursorLine = cursorRow();
    resize(MIN_COLUMNS - 10, MIN_ROWS - 4);
    await app.waitFor((s) => s.includes(`needs at least ${MIN_COLUMNS}×${MIN_ROWS}`));
    // One sentence, wrapped to the width.
    const said = app.screen().replace(/\s+/g, ' ').trim();
    expect(said).toBe(
      `linedesk needs at least ${MIN_COLUMNS}×${MIN_ROWS}; this terminal is ${MIN_COLUMNS - 10}×${MIN_ROWS - 4}. Make it larger, or press q or Ctrl-C to quit.`,
    );
    // Nothing of the frame is left: no table, no footer.
    expect(app.screen()).not.toMatch(/USERNAME|of 240/);
    // A screen's key does nothing meanwhile (the help would have opened).
    app.write(key('app.help'));
    resize(100, 30);
    await app.waitFor((s) => /1–\d+ of 240/.test(s) && s.includes('USERNAME'));
    expect(app.screen()).not.toMatch(/needs at least|Keys/);
    expect(cursorRow()).toBe(cursorLine);
    // And q quits at once while too small.
    resize(40, 8);
    await app.waitFor((s) => s.includes('needs at least'));
    app.write('q');
    await app.waitExit();
    expect(app.exitCode()).toBe(0);
  });
});

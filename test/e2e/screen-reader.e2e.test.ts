import { afterEach, describe, expect, it } from 'vitest';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const sessions: Array<{ cleanup: () => void }> = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.cleanup();
});

/** A line of the browser said as one sentence: "name, [label, ]status, type, N connection(s), expiry". */
const SENTENCE =
  /^\(selected\) \S+, (?:.+, )?(?:active|expiring|expired|suspended), (?:trial|premium), \d+ connections?, (?:expires|expired|never expires)/;

/** Box drawing, blocks and the markers a screen reader cannot say. */
const drawn = (text: string) => [...new Set(text.match(/[\u2500-\u259f›‹●○↑↓←→▶►▸]/gu) ?? [])];

describe('the screen-reader mode in a real terminal (issue 28)', () => {
  it('no boxes or glyph markers; each row one sentence; the cursor parked on the selected row', async () => {
    const app = spawnApp(['--screen-reader'], {}, { cols: 80, rows: 20 });
    sessions.push(app);
    await app.waitFor((s) => s.includes('(selected) '));
    const rows = () => app.screen().split('\n');
    const cursorRow = () => app.term.buffer.active.cursorY;
    const selected = () => rows().findIndex((r) => r.startsWith('(selected) '));
    await app.waitFor(() => cursorRow() === selected());
    expect(rows()[selected()]).toMatch(SENTENCE);
    app.write(key('lines.down'));
    app.write(key('lines.mark'));
    await app.waitFor((s) => /, marked\s*$/m.test(s));
    // The cursor followed the selection, and the row before it says it is marked.
    await app.waitFor(() => cursorRow() === selected());
    expect(rows()[selected()]).toMatch(SENTENCE);
    expect(rows()[selected() - 1]).toMatch(/, marked\s*$/);
    expect(drawn(app.screen())).toEqual([]);
    // A dialog: no border; its rows "Header: value".
    app.write(key('line.extend'));
    await app.waitFor((s) => /Extend/.test(s) && /Cost: /.test(s));
    expect(drawn(app.screen())).toEqual([]);
    // Help: one column, each key said with what it does, arrows in words.
    app.write(key('action.cancel'));
    await app.waitFor((s) => !/Cost: /.test(s));
    app.write(key('app.help'));
    await app.waitFor((s) => /^Down or j: Next line/m.test(s));
    // A screen taller than the terminal (the line's detail, every field a row) is cut above its
    // footer, never scrolled: the header stays on the first row, the last row stays free.
    app.write(key('help.close'));
    await app.waitFor((s) => !/^Down or j/m.test(s));
    app.write(key('lines.open'));
    await app.waitFor((s) => /^Username: /m.test(s));
    expect(rows()[0]).toContain('linedesk');
    expect(rows().at(-1)!.trim()).toBe('');
    // The footer is the last row written (a detail cut short of the terminal leaves rows free).
    expect(rows().findLast((r) => r.trim() !== '')).toMatch(/ help /);
    // Typing in the palette: the cursor is in the text field, after what was typed.
    app.write(key('app.palette'));
    app.write('he');
    await app.waitFor((s) => /textbox: he\s*$/m.test(s));
    const field = rows().findIndex((r) => /textbox: he\s*$/.test(r));
    await app.waitFor(() => cursorRow() === field);
    expect(app.term.buffer.active.cursorX).toBe(rows()[field]!.trimEnd().length);
    // Nothing the app wrote drew a box or a marker, ever (escape sequences aside).
    expect(drawn(app.output().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))).toEqual([]);
  });
});

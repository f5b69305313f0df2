import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileNotes } from '../../src/app/notes-file';
import { loaded } from '../../src/domain/load';
import { PASTE_END, PASTE_START } from '../../src/keys/paste';
import { memoryJournal } from '../../src/services/changes/journal';
import { memoryNotes } from '../../src/services/notes';
import type { Settings, SettingsApi } from '../../src/store/deps';
import { selectLocalFound } from '../../src/store/notes-slice';
import { selectNote } from '../../src/store/selectors';
import { selectDialog } from '../../src/store/view-stack';
import { renderApp, storeOnSandbox } from '../helpers/app';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ld-notes-ui-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const ready = (f: string) => /\d+–\d+ of \d+/.test(f);
type App = Awaited<ReturnType<typeof renderApp>>;

/** Opens the note form from the line detail of the cursor line and types the three fields. */
async function writeNote(app: App, name: string, phone: string, text: string) {
  await app.press('note.edit');
  await app.waitFrame((f) => f.includes('kept on this machine, never sent'));
  await app.type(name);
  await app.press('note.next');
  await app.type(phone);
  await app.press('note.next');
  await app.type(text);
}

function memorySettings(): SettingsApi & { saved: Partial<Settings>[] } {
  let s: Settings = { window: { withinDays: 7, expiredDays: 30 }, lowBalance: null };
  const saved: Partial<Settings>[] = [];
  return {
    saved,
    read: () => s,
    save(patch) {
      saved.push(patch);
      s = { ...s, ...patch };
      return null;
    },
  };
}

describe('notes per line (kept on this machine)', () => {
  it('edited in the detail, shown there, kept in a 0600 file that a second store reads back', async () => {
    const file = join(root, 'notes', 'sandbox.json');
    const app = await renderApp({}, { notes: fileNotes(file) });
    await app.waitFrame(ready);
    const line = loaded(app.store.getState().lines)!.lines[2]!;
    await app.press('lines.down');
    await app.press('lines.down');
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes(`Line ${line.username}`) && f.includes('Local note'));
    await writeNote(app, 'Anna Smith', '+44 20 7946 0958', 'pays cash, first of the month');
    await app.press('note.save');
    await app.waitFrame(
      (f) =>
        f.includes('Customer      Anna Smith') &&
        f.includes('+44 20 7946 0958') &&
        f.includes('pays cash, first of the month') &&
        f.includes(`Note for ${line.username} saved on this machine`),
    );
    expect(app.frame()).toContain('kept on this machine, not on the service');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // A second session over the same file: the note is there.
    const again = await storeOnSandbox({}, { notes: fileNotes(file) });
    expect(selectNote(again.store.getState(), line.id)).toMatchObject({
      name: 'Anna Smith',
      phone: '+44 20 7946 0958',
      text: 'pays cash, first of the month',
    });

    // Blank all three: the note is removed (from the file too).
    await app.press('note.edit');
    await app.waitFrame((f) => f.includes('kept on this machine, never sent'));
    for (let i = 0; i < 3; i++) {
      await app.press('note.next');
      await app.ui.stdin.write('\u0015'); // Ctrl-U: the field emptied
      await new Promise((r) => setImmediate(r));
    }
    await app.waitFrame((f) => !f.includes('Anna Smith'));
    await app.press('note.save');
    await app.waitFrame((f) => f.includes(`Note for ${line.username} removed`));
    expect(fileNotes(file).get(line.id)).toBeUndefined();
  });

  it('from the lines browser on the cursor line; Esc cancels with nothing saved', async () => {
    const notes = memoryNotes();
    const app = await renderApp({}, { notes });
    await app.waitFrame(ready);
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await writeNote(app, 'Bo', '', '');
    await app.press('note.cancel');
    await app.waitFrame((f) => !f.includes('never sent') && ready(f));
    expect(notes.get(line.id)).toBeUndefined();
    await writeNote(app, 'Bo', '', '');
    await app.press('note.save');
    await app.waitFrame((f) => f.includes(`Note for ${line.username} saved`));
    expect(notes.get(line.id)?.name).toBe('Bo');
  });

  it('an over-long field gets its message at the field, and Enter saves nothing', async () => {
    const notes = memoryNotes();
    const app = await renderApp({}, { notes });
    await app.waitFrame(ready);
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('note.edit');
    await app.waitFrame((f) => f.includes('never sent'));
    await app.type('x'.repeat(61));
    await app.waitFrame((f) => f.includes('✗ Too long: at most 60 characters (61 now)'));
    await app.press('note.save');
    await app.waitFrame((f) =>
      f.includes('Customer: Too long: at most 60 characters (61 now); nothing saved'),
    );
    expect(selectDialog(app.store.getState())).toBe('note');
    expect(notes.get(line.id)).toBeUndefined();
    // Back within the limit: the message goes, and it saves.
    await app.ui.stdin.write('\u007f');
    await app.waitFrame((f) => !f.includes('✗ Too long'));
    await app.press('note.save');
    await app.waitFrame((f) => f.includes('saved on this machine'));
    expect(notes.get(line.id)?.name).toBe('x'.repeat(60));
  });

  it('a long paste into a field is text, cut one past the limit so the field says what is too long', async () => {
    const notes = memoryNotes();
    const app = await renderApp({}, { notes });
    await app.waitFrame(ready);
    await app.press('note.edit');
    await app.waitFrame((f) => f.includes('never sent'));
    await app.press('note.prev'); // the free text
    app.ui.stdin.write(`${PASTE_START}${'y'.repeat(700)}\r\u001b[27u${PASTE_END}`);
    await app.waitFrame((f) => f.includes('✗ Too long: at most 500 characters (501 now)'));
    expect(selectDialog(app.store.getState())).toBe('note'); // neither saved nor cancelled by the paste
    expect(app.store.getState().noteForm!.values.text).toBe('y'.repeat(501));
  });

  it('a note that cannot be saved says why; the form stays open with what was typed', async () => {
    // The notes directory is a file: nothing can be written under it.
    writeFileSync(join(root, 'notes'), 'in the way');
    const app = await renderApp({}, { notes: fileNotes(join(root, 'notes', 'sandbox.json')) });
    await app.waitFrame(ready);
    await writeNote(app, 'Cleo', '555', 'kept?');
    await app.press('note.save');
    await app.waitFrame((f) => f.includes('Note not saved (what you typed is still here)'));
    const form = app.store.getState().noteForm!;
    expect(selectDialog(app.store.getState())).toBe('note');
    expect(form.values).toEqual({ name: 'Cleo', phone: '555', text: 'kept?' });
    expect(app.frame()).toContain('Cleo');
  });

  it('a corrupt notes file is said once, logged, kept aside and never overwritten', async () => {
    const file = join(root, 'notes', 'sandbox.json');
    const garbage = '{"version":1,"notes":{"a": [oops';
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, garbage, { mode: 0o600 });
    const logged: string[] = [];
    const app = await renderApp(
      {},
      { notes: fileNotes(file), logError: (ctx, err) => logged.push(`${ctx}: ${(err as Error).message}`) },
    );
    await app.waitFrame((f) => ready(f) && f.includes('The notes file was unreadable; it was kept as'));
    const aside = readdirSync(dirname(file)).filter((n) => n.includes('.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dirname(file), aside[0]!), 'utf8')).toBe(garbage);
    expect(logged.filter((l) => l.startsWith('notes: The notes file was unreadable'))).toHaveLength(1);
    // A new note is written to a new file; the kept copy is untouched.
    await writeNote(app, 'Dee', '', '');
    await app.press('note.save');
    await app.waitFrame((f) => f.includes('saved on this machine'));
    expect(readFileSync(join(dirname(file), aside[0]!), 'utf8')).toBe(garbage);
    expect(JSON.parse(readFileSync(file, 'utf8')).notes).toBeTruthy();
    // Said once: a refresh does not say it again.
    await app.press('app.refresh');
    await app.waitFrame((f) => !f.includes('unreadable'), 10_000);
    expect(logged.filter((l) => l.startsWith('notes:'))).toHaveLength(1);
  });

  it('the Note column (N) shows the note, and the choice is saved in the settings', async () => {
    const settings = memorySettings();
    const app = await renderApp({}, { notes: memoryNotes(), settings });
    await app.waitFrame(ready);
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await writeNote(app, 'Eve', '', 'VIP');
    await app.press('note.save');
    await app.waitFrame((f) => f.includes('saved on this machine'));
    expect(app.frame()).not.toContain('NOTE');
    await app.press('note.column');
    await app.waitFrame((f) => f.includes('NOTE') && f.includes('Eve · VIP'));
    const row = app
      .frame()
      .split('\n')
      .find((l) => l.includes(line.username))!;
    expect(row).toContain('Eve · VIP');
    expect(settings.saved).toEqual([{ noteColumn: true }]);
    await app.press('note.column');
    await app.waitFrame((f) => !f.includes('NOTE'));
    expect(settings.saved.at(-1)).toEqual({ noteColumn: false });
    // The palette's `notes column` does the same.
    await app.press('app.palette');
    await app.type('notes column');
    await app.press('palette.run');
    await app.waitFrame((f) => f.includes('NOTE') && f.includes('Note column shown'));
    expect(settings.saved.at(-1)).toEqual({ noteColumn: true });
  });

  it('/ finds a line by its note, labelled as a local match; it opens and marks like any line', async () => {
    const env = await storeOnSandbox();
    const lines = (await env.client.listLines({ limit: 100 })).lines;
    const target = lines[37]!;
    const notes = memoryNotes({
      [target.id]: { name: 'Zebediah Quux', phone: '', text: '', updatedAt: '2026-01-01T00:00:00.000Z' },
    });
    const app = await renderApp({}, { notes }, env);
    await app.waitFrame(ready);
    await app.press('lines.search');
    await app.type('zebediah');
    await app.press('search.apply');
    await app.waitFrame(
      (f) => f.includes('1 more found in local notes') && f.includes(target.username) && f.includes('0 of 0'),
    );
    // The server found nothing: the local match is the cursor line.
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes(`Line ${target.username}`) && f.includes('Zebediah Quux'));
    await app.press('app.back');
    await app.waitFrame((f) => f.includes('1 more found in local notes'));
    await app.press('lines.mark');
    await vi.waitFor(() => expect(app.store.getState().marked.has(target.id)).toBe(true));
    await app.waitFrame((f) => f.split('\n').some((l) => l.includes(target.username) && l.includes('●')));
    // Esc clears the search: the local group goes with it.
    await app.press('app.back');
    await app.waitFrame((f) => ready(f) && !f.includes('local notes'));
  });

  it('a local match is not repeated when the server finds it, and is entered from the last row', async () => {
    const env = await storeOnSandbox();
    const lines = (await env.client.listLines({ limit: 100 })).lines;
    const [a, b] = [lines[3]!, lines[50]!];
    const stamp = '2026-01-01T00:00:00.000Z';
    // a's note holds its own username (the server finds it); b's holds the same text.
    const part = a.username;
    const notes = memoryNotes({
      [a.id]: { name: part, phone: '', text: '', updatedAt: stamp },
      [b.id]: { name: `friend of ${part}`, phone: '', text: '', updatedAt: stamp },
    });
    const app = await renderApp({}, { notes }, env);
    await app.waitFrame(ready);
    const size = app.store.getState().pageSize;
    await app.press('lines.search');
    await app.type(part);
    await app.press('search.apply');
    await app.waitFrame((f) => f.includes('1 more found in local notes') && f.includes(b.username));
    // The page gives up two rows (the group's heading and its line), once the lookup is done.
    await vi.waitFor(() => {
      expect(app.store.getState().pageSize).toBe(size - 2);
      expect(app.store.getState().lines.status).toBe('ready');
    });
    expect(loaded(app.store.getState().lines)!.lines.map((l) => l.id)).toEqual([a.id]);
    const s = app.store.getState();
    expect(selectLocalFound(s)?.lines.map((l) => l.id)).toEqual([b.id]);
    const n = loaded(s.lines)!.lines.length;
    expect(loaded(s.lines)!.nextOffset).toBeNull();
    for (let i = 0; i < n; i++) await app.press('lines.down');
    await vi.waitFor(() => expect(app.store.getState().cursor).toBe(n));
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes(`Line ${b.username}`));
  });

  it('the journal export writes the notes too, formula-guarded, and the flash names both files', async () => {
    const files = new Map<string, string>();
    const app = await renderApp(
      {},
      {
        notes: memoryNotes(),
        journal: memoryJournal(),
        writeExport: (name, content) => {
          files.set(name, content);
          return `/exports/${name}`;
        },
      },
    );
    await app.waitFrame(ready);
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await writeNote(app, '=HYPERLINK("x")', '+44 20 7946 0958', 'says "hi", often');
    await app.press('note.save');
    await app.waitFrame((f) => f.includes('saved on this machine'));
    await app.press('nav.journal');
    await app.press('journal.export');
    // Both beside the other exports (issue 24: the journal's CSV went to the data folder).
    await app.waitFrame((f) =>
      /Exported 0 journal entries to \/exports\/journal-[\d-]+\.csv, 1 note to\s+notes-/.test(f),
    );
    const [name, csv] = [...files.entries()].find(([k]) => k.startsWith('notes-'))!;
    expect(name).toMatch(/\.csv$/);
    const [header, row] = csv.split('\r\n');
    expect(header).toBe('line_id,customer,phone,text,updated');
    expect(row).toMatch(
      new RegExp(`^${line.id},"'=HYPERLINK\\(""x""\\)",\\+44 20 7946 0958,"says ""hi"", often",\\d{4}-`),
    );
  });
});

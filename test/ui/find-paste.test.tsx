/**
 * Pasting what people paste (issue 24): a ticket's list pasted into `/` searches its first name
 * and says that pasting in the browser marks them all; a pasted multi-line note keeps its lines.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyUserKeys, resetUserKeys } from '../../src/commands/user-keys';
import { loaded } from '../../src/domain/load';
import { memoryNotes } from '../../src/services/notes';
import { renderApp } from '../helpers/app';

const paste = (text: string) => `\u001b[200~${text}\u001b[201~`;

describe('pastes', () => {
  afterEach(() => resetUserKeys());
  it('/ then a pasted list: the first name is searched, and the flash says the browser marks them all', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('USERNAME'));
    const names = (await app.client.listLines({ limit: 3, offset: 10 })).lines.map((l) => l.username);
    await app.press('lines.search');
    app.ui.stdin.write(paste(names.join('\n')));
    await app.waitFrame((f) => f.includes('to mark all 3, press Esc and paste in the browser'));
    expect(app.store.getState().searchDraft).toBe(names[0]);
    expect(app.store.getState().flash?.text).toBe(
      'First of 3 pasted names searched; to mark all 3, press Esc and paste in the browser',
    );
    app.ui.unmount();
  });

  it('the key named there is the search field’s as it is now (remapped in the config)', async () => {
    applyUserKeys({ keys: { 'search.clear': 'Ctrl-G' } });
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('USERNAME'));
    const names = (await app.client.listLines({ limit: 2, offset: 10 })).lines.map((l) => l.username);
    await app.press('lines.search');
    app.ui.stdin.write(paste(names.join('\n')));
    await app.waitFrame((f) => f.includes('to mark all 2, press Ctrl-G and paste in the browser'));
    app.ui.unmount();
  });

  it('a multi-line note pasted into the note keeps its lines: saved and shown as lines in the detail', async () => {
    const notes = memoryNotes();
    const app = await renderApp({ lines: 40 }, { notes });
    await app.waitFrame((f) => f.includes('USERNAME'));
    await vi.waitFor(() => expect(loaded(app.store.getState().lines)?.lines.length).toBeGreaterThan(0));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Local note'));
    await app.press('note.edit');
    await app.waitFrame((f) => f.includes('kept on this machine, never sent'));
    await app.press('note.next');
    await app.press('note.next');
    app.ui.stdin.write(paste('Flat 4B, Mullerstraße 12\r\nRing twice\nPays on the 1st'));
    await app.waitFrame((f) => f.includes('Ring twice'));
    await app.press('note.save');
    await app.waitFrame((f) => f.includes(`Note for ${line.username} saved`));
    expect(notes.get(line.id)?.text).toBe('Flat 4B, Mullerstraße 12\nRing twice\nPays on the 1st');
    // The detail shows its first lines as lines, not run together.
    const rows = app.frame().split('\n');
    expect(rows.some((r) => /Note\s+Flat 4B, Mullerstraße 12\s*$/.test(r.replace(/│/g, '').trimEnd()))).toBe(
      true,
    );
    expect(rows.some((r) => /^\s+Ring twice/.test(r.replace(/│/g, '')))).toBe(true);
    app.ui.unmount();
  });
});

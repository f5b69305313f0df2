import { describe, expect, it } from 'vitest';
import { loaded } from '../../src/domain/load';
import { PASTE_END, PASTE_START } from '../../src/keys/paste';
import { selectDialog, viewIds } from '../../src/store/view-stack';
import { renderApp } from '../helpers/app';
import { books } from '../helpers/sandbox';

/** Writes a stream as a terminal might deliver it: in pieces, markers cut in the middle. */
async function paste(app: Awaited<ReturnType<typeof renderApp>>, text: string, pieces = 7) {
  const stream = `${PASTE_START}${text}${PASTE_END}`;
  const size = Math.ceil(stream.length / pieces);
  for (let at = 0; at < stream.length; at += size) {
    app.ui.stdin.write(stream.slice(at, at + size));
    await new Promise((r) => setImmediate(r));
  }
  // A cut inside the end marker as well.
  app.ui.stdin.write('');
}

describe('a paste is text, never keys (item 6)', () => {
  it('60 KB with newlines into the username field: nothing is confirmed or created; the field keeps 30', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    const lines = app.sb.repo.linesCount(1);
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    await app.press('form.next');
    await app.press('form.next'); // → username
    await paste(app, `user${'x'.repeat(60_000)}\r\r\r\u001b[B\r`, 9);
    await app.waitFrame((f) => f.includes('Pasted the first'));
    const s = app.store.getState();
    expect(selectDialog(s)).toBe('form'); // not submitted, not confirmed
    expect(String(s.form!.values.username)).toBe(`user${'x'.repeat(26)}`);
    expect(app.sb.repo.linesCount(1)).toBe(lines);
    expect(books(app.sb).ledger).toHaveLength(0);
  });

  it('a paste in the lines browser runs no command (q, d, Enter, Esc inside it): it is a list to mark', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await paste(app, 'q d\r\u001b2?A', 3);
    await app.waitFrame((f) => f.includes('not found: q, d, 2?A'));
    const s = app.store.getState();
    expect(selectDialog(s)).toBeNull();
    expect(viewIds(s)).toEqual(['lines']);
    expect(s.quitRequested).toBe(false);
    expect(s.marked.size).toBe(0);
  });

  it('a paste into the search field is searched for as text', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('lines.search');
    await app.waitFrame((f) => f.includes('search:'));
    const who = loaded(app.store.getState().lines)!.lines[3]!.username;
    await paste(app, `${who}\rrest`, 2);
    await app.waitFrame((f) => f.includes(`search: ${who}`) || f.includes(who));
    expect(app.store.getState().searchDraft).toBe(who);
    expect(app.store.getState().searchOpen).toBe(true); // the \r inside did not apply it
  });
});

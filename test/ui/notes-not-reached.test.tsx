/**
 * `/` adds the lines whose note matches, looked up in a walk of at most 20 pages for what the
 * server's search cannot find: a noted line that walk did not reach is said "not looked up", never
 * "no longer on the service" (that is said only of a line proven absent: the whole list read), and
 * said even when no noted line was found.
 */
import { describe, expect, it } from 'vitest';
import { memoryNotes } from '../../src/services/notes';
import { renderApp } from '../helpers/app';
import { farLines } from '../helpers/unreached';

describe('/ and a noted line the notes lookup did not reach', () => {
  it('says it not looked up, beside what it found, and alone', async () => {
    // 21 pages on a server whose search matches no id: a note kept without a username is looked up
    // by its line's id, in a walk of 20 pages that never reads the list's last line.
    const { env, client, first, last } = await farLines();
    const stamp = '2026-01-01T00:00:00.000Z';
    const notes = memoryNotes({
      [first!.id]: { name: 'Zed Quux', phone: '', text: '', updatedAt: stamp },
      [last!.id]: { name: 'Zebediah Quux', phone: '', text: '', updatedAt: stamp },
    });
    const app = await renderApp({}, { client, notes }, env);
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('lines.search');
    await app.type('quux');
    await app.press('search.apply');
    await app.waitFrame(
      (f) =>
        f.includes('1 more found in local notes') &&
        f.includes(first!.username) &&
        f.includes('1 line whose note matches was not looked up'),
    );
    expect(app.frame()).not.toContain('no longer on the service');
    // Esc clears the search; then one only the line not reached has in its note.
    await app.press('app.back');
    await app.waitFrame((f) => !f.includes('local notes') && !f.includes('not looked up'));
    await app.press('lines.search');
    await app.type('zebediah');
    await app.press('search.apply');
    // Only the server's search is proven empty (once its page is in): the noted line may match, so
    // never "No lines match".
    await app.waitFrame(
      (f) =>
        f.includes('1 line whose note matches was not looked up (the lookup reads 20 pages at most)') &&
        f.includes("No line the server's search finds matches"),
    );
    expect(app.frame()).not.toContain('no longer on the service');
    expect(app.frame()).not.toContain('No lines match');
    expect(app.frame()).not.toContain(last!.username);
  }, 30_000);
});

/**
 * The find (`:find`) adds the lines whose note matches, looked up in a walk of at most NOTE_WALK_PAGES
 * pages for what the server's search cannot find: a noted line that walk did not reach is said "not
 * looked up" in the source's note, never left out in silence as if no line had it.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { findInService } from '../../src/services/find-lines';
import { memoryNotes } from '../../src/services/notes';
import { broken, withNamelessLine } from '../helpers/broken-item';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { brokenLines, farLines } from '../helpers/unreached';
import { cleanups } from '../helpers/wait';

describe('find: a noted line the notes lookup did not reach', () => {
  it('is said not looked up; the one reached is listed', async () => {
    const { client, first, last } = await farLines();
    const stamp = '2026-01-01T00:00:00.000Z';
    // Kept without a username: each is looked up by its line's id, which this server's search ignores.
    const notes = memoryNotes({
      [first!.id]: { name: 'Zed Quux', phone: '', text: '', updatedAt: stamp },
      [last!.id]: { name: 'Zebediah Quux', phone: '', text: '', updatedAt: stamp },
    });
    const found = await findInService(client, 'quux', new AbortController().signal, undefined, notes);
    expect(found.lines.map((l) => l.id)).toEqual([first!.id]);
    expect(found.note).toBe(
      '1 line whose note matches was not looked up (the lookup reads 20 pages at most)',
    );
  }, 30_000);

  it('one the server lists in a form that does not read is said so, not "not looked up"', async () => {
    const { client } = await brokenLines();
    const stamp = '2026-01-01T00:00:00.000Z';
    const notes = memoryNotes({ [broken.id]: { name: 'Zed Quux', phone: '', text: '', updatedAt: stamp } });
    const found = await findInService(client, 'quux', new AbortController().signal, undefined, notes);
    expect(found.lines).toEqual([]);
    expect(found.note).toBe(
      '1 line whose note matches was not readable (listed by the server in a form that does not read)',
    );
  });
});

describe('find: a noted line not listed, where a line is listed without its id', () => {
  it('is said not identified (it may be that line), never "not readable" nor left out', async () => {
    const env = await sandbox({ lines: 40 });
    const [line] = (await env.client.listLines({ offset: 3, limit: 1 })).lines;
    const srv = await withNamelessLine(env.sb.baseUrl, line!.id);
    const client = createClient({ baseUrl: srv.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(async () => {
      await client.close();
      await srv.close();
    });
    const stamp = '2026-01-01T00:00:00.000Z';
    const gone = '7d4b0e52-64d9-4c3e-9a57-0c2b1e9f3a10';
    const notes = memoryNotes({ [gone]: { name: 'Zed Quux', phone: '', text: '', updatedAt: stamp } });
    const found = await findInService(client, 'quux', new AbortController().signal, undefined, notes);
    expect(found.lines).toEqual([]);
    expect(found.note).toBe(
      '1 line whose note matches was not identified (it may be one of the lines the server listed in a form that does not read)',
    );
  });
});

describe('find: a line the search matches that does not read', () => {
  it('is said not readable, never a silent "no match"', async () => {
    const { client } = await brokenLines();
    for (const text of [broken.username, broken.id]) {
      const found = await findInService(client, text, new AbortController().signal);
      expect(found.lines).toEqual([]);
      expect(found.note).toBe(
        '1 line the search matches was not readable (listed by the server in a form that does not read)',
      );
    }
  });
});

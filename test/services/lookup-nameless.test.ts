/**
 * A lookup that meets an item whose id does not read (it may be any line asked for) says of each key
 * it did not find the reason that is true of it: the walk stopped before the end (`unreached`), a line
 * of that name is listed unread (`unreadable`), or, the whole list read, it may be one of the items
 * that did not read (`unidentified`). Before, every key missing was then "not readable (listed by the
 * server in a form that does not read)", and a walk cut short lost its "not looked up".
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { lookUpToMarkAgain } from '../../src/services/changes/recovery';
import { findInService } from '../../src/services/find-lines';
import { lookupPasted, unsettledText, unsettledWhy } from '../../src/services/paste-lookup';
import { withNamelessLine } from '../helpers/broken-item';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';

/** `lines` lines behind a server that sends the one at `at` with no id; a client to it. */
async function namelessAt(lines: number, at: number) {
  const { client: direct, sb } = await sandbox({ lines });
  const [line] = (await direct.listLines({ offset: at, limit: 1 })).lines;
  const far = (await direct.listLines({ offset: lines - 1, limit: 1 })).lines[0]!;
  const srv = await withNamelessLine(sb.baseUrl, line!.id);
  const client = createClient({ baseUrl: srv.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(async () => {
    await client.close();
    await srv.close();
  });
  return { client, nameless: line!, far };
}

const nobody = ['zz-nobody-1', 'zz-nobody-2'];

describe('a lookup that met an item whose id does not read', () => {
  it('the whole list read: a key missing may be that item (unidentified, not "not readable")', async () => {
    const { client, nameless } = await namelessAt(40, 5);
    const r = await lookupPasted(client, [...nobody, nameless.username], {
      cancelled: () => false,
      progress: () => {},
    });
    expect(r.missing).toEqual([...nobody, nameless.username]);
    // Its username still reads: a key of that name is a line there, unread.
    expect(r.unreadable).toEqual([nameless.username]);
    expect(r.unreached).toEqual([]);
    expect(r.unidentified).toEqual(nobody);
    expect(r.nameless).toBe(1);
    expect(unsettledText(unsettledWhy(r, 'zz-nobody-1')!, undefined, r.nameless)).toBe(
      'not identified (it may be the line the server listed in a form that does not read)',
    );
  });

  it('a walk cut short: a key missing was not reached (the stronger reason), not "not readable"', async () => {
    const { client, nameless, far } = await namelessAt(300, 5);
    // A stale total makes the walk the cheaper way; it stops after its one page.
    const r = await lookupPasted(client, [...nobody, far.username, nameless.username], {
      cancelled: () => false,
      progress: () => {},
      maxPages: 1,
      total: 100,
    });
    expect(r.missing).toEqual([...nobody, far.username, nameless.username]);
    expect(r.unreached).toEqual([...nobody, far.username]);
    expect(r.unreadable).toEqual([nameless.username]);
    expect(r.unidentified).toEqual([]);
  });
});

describe('the resume offer marking lines again, among items whose id does not read', () => {
  it('one not listed readably is "not identified", never "not found" nor "not readable"', async () => {
    const { client, nameless } = await namelessAt(40, 5);
    const absent = '7d4b0e52-64d9-4c3e-9a57-0c2b1e9f3a10';
    const r = await lookUpToMarkAgain(client, [absent, nameless.id], {
      whole: true,
      cancelled: () => false,
    });
    // The line sent without its id is the second: it may be either, so neither is proven absent.
    expect(r.notIdentified).toEqual([absent, nameless.id]);
    expect(r.notReadable).toEqual([]);
    expect(r.notFound).toEqual([]);
    expect(r.found).toEqual([]);
  });
});

describe('find: an id walked for among items whose id does not read', () => {
  const id = '7d4b0e52-64d9-4c3e-9a57-0c2b1e9f3a10';
  it('the whole list read: the id\'s line may be that item, said so (never silent, never "not readable")', async () => {
    const { client } = await namelessAt(40, 5);
    const found = await findInService(client, id, new AbortController().signal);
    expect(found.lines).toEqual([]);
    expect(found.note).toBe(
      "the id's line was not identified (it may be the line the server listed in a form that does not read)",
    );
  });

  it('a walk cut short says so, not that the line was not readable', async () => {
    const { client } = await namelessAt(300, 5);
    const found = await findInService(client, id, new AbortController().signal, 1);
    expect(found.lines).toEqual([]);
    expect(found.note).toBe('the id was looked for in the first 99 of 300 lines only');
  });
});

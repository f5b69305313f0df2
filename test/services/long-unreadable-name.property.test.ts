/**
 * An item the server lists in a form that does not read (a bad field) is matched by its whole id and
 * username, whatever their length: a line is there, never "not found" after a whole walk. Before, the
 * names of such an item were cut to 60 characters (for display) when read, and compared cut with the
 * whole name asked for: a username of 61 characters or more was then "not found", and the name's
 * first 60 characters alone "not readable". The cut is the display's only (`unreadableText`).
 * A name longer than a search may be (SEARCH_MAX, 200) is walked for: its search, refused before it
 * was sent, failed the whole lookup.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { lookupPasted, unsettledWhy } from '../../src/services/paste-lookup';
import { broken, withBrokenItem } from '../helpers/broken-item';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
/** Names around the display's cut (60) and well beyond it; "zq" first: no sandbox line's name. */
const name = fc
  .oneof(fc.integer({ min: 56, max: 66 }), fc.integer({ min: 8, max: 300 }))
  .chain((n) => fc.array(letters, { minLength: n - 2, maxLength: n - 2 }))
  .map((a) => `zq${a.join('')}`);

let item = broken;
let client: ReturnType<typeof createClient>;
let close: () => Promise<void>;
beforeAll(async () => {
  const { sb } = await sandbox({ lines: 40 });
  const srv = await withBrokenItem(sb.baseUrl, () => item);
  client = createClient({ baseUrl: srv.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  close = async () => {
    await client.close();
    await srv.close();
  };
});
afterAll(() => close());

const why = async (key: string) =>
  unsettledWhy(await lookupPasted(client, [key], { cancelled: () => false, progress: () => {} }), key);

describe('an unreadable item of a long name', () => {
  it('answers to its whole username or id (in any case), and to no other name', async () => {
    await fc.assert(
      fc.asyncProperty(name, fc.boolean(), async (n, asId) => {
        item = asId ? { ...broken, id: n } : { ...broken, username: n };
        // There, unread: never proven absent, whatever the name's length.
        expect(await why(n)).toBe('unreadable');
        expect(await why(n.toUpperCase())).toBe('unreadable');
        // Its first 60 characters are another name: the whole list read, no line has it.
        if (n.length > 60) expect(await why(n.slice(0, 60))).toBeNull();
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

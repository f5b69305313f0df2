/**
 * A walk cut short has not seen every spelling of a name (issue 27's review): an item it found only
 * ignoring case may have its exact line on a page it never read, so it is "missing", never found.
 * Before, `liam01` resolved to Liam01 (page 1) while the line named liam01 sat on page 5.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/services/client';
import { lookupPasted } from '../../src/services/paste-lookup';
import { listPage } from '../helpers/list-page';

const rows = Array.from({ length: 500 }, (_, i) => ({
  id: `id${String(i).padStart(3, '0')}`,
  username: `user${i}`,
}));
rows[50]!.username = 'Liam01';
rows[450]!.username = 'liam01';

/** A server whose search matches usernames only; pages in id order. `bad`: ids of items it sends
 *  that do not read (listed as unreadable, at their index); `nameless`: their id and username do not
 *  read either. */
function server(bad: ReadonlySet<string> = new Set(), nameless = false) {
  let calls = 0;
  const client = {
    listLines: async (q: { search?: string; offset?: number; limit?: number }) => {
      calls++;
      const s = q.search
        ? rows.filter((r) => r.username.toLowerCase().includes(q.search!.toLowerCase()))
        : rows;
      return listPage(s, q, bad, nameless);
    },
  } as unknown as Pick<ServiceClient, 'listLines'>;
  return { client, calls: () => calls };
}

describe('a lookup whose walk is cut short', () => {
  const items = ['liam01', 'user1', 'user2', 'user3', 'user4'];
  it('at its page limit: the case-folded match is missing, not found', async () => {
    const { client } = server();
    // A stale total makes the walk the cheaper way; it stops after 3 pages (300 lines).
    const r = await lookupPasted(client, items, {
      cancelled: () => false,
      progress: () => {},
      maxPages: 3,
      total: 250,
    });
    expect(r.found.get('liam01')).toBeUndefined();
    expect(r.missing).toContain('liam01');
    expect(r.found.get('user1')?.id).toBe('id001');
  });

  it('cancelled: the same', async () => {
    const s = server();
    const r = await lookupPasted(s.client, items, {
      cancelled: () => s.calls() >= 3,
      progress: () => {},
      total: 250,
    });
    expect(r.found.get('liam01')).toBeUndefined();
  });

  it('walked to the end: the exact line is found', async () => {
    const { client } = server();
    const r = await lookupPasted(client, items, { cancelled: () => false, progress: () => {}, total: 250 });
    expect(r.found.get('liam01')?.id).toBe('id450');
  });

  it('says what it did not reach: missing then is not absent (unreached); a whole walk proves it', async () => {
    const cut = await lookupPasted(server().client, ['id450', 'id001', 'nobody'], {
      cancelled: () => false,
      progress: () => {},
      maxPages: 3,
      total: 250,
    });
    expect(cut.found.get('id001')?.id).toBe('id001');
    expect(cut.missing).toEqual(['id450', 'nobody']);
    expect(cut.unreached).toEqual(['id450', 'nobody']);
    const whole = await lookupPasted(server().client, ['id450', 'nobody'], {
      cancelled: () => false,
      progress: () => {},
      total: 250,
    });
    expect(whole.found.get('id450')?.id).toBe('id450');
    expect(whole.missing).toEqual(['nobody']);
    expect(whole.unreached).toEqual([]);
  });

  it('a line the list holds but that does not read is not proven absent: unreadable (not unreached), never "not found"', async () => {
    for (const total of [250, undefined]) {
      const r = await lookupPasted(server(new Set(['id120', 'id030'])).client, ['id120', 'id030', 'nobody'], {
        cancelled: () => false,
        progress: () => {},
        ...(total !== undefined ? { total } : {}),
      });
      expect(r.missing).toEqual(['id120', 'id030', 'nobody']);
      // The whole list was read: nothing is unreached; the two listed unreadably are said so.
      expect(r.unreadable).toEqual(['id120', 'id030']);
      expect(r.unreached).toEqual([]);
    }
  });

  it('a walk cut short tells the two apart: met unreadable, or not reached', async () => {
    const r = await lookupPasted(server(new Set(['id030'])).client, ['id030', 'id450'], {
      cancelled: () => false,
      progress: () => {},
      maxPages: 3,
      total: 250,
    });
    expect(r.missing).toEqual(['id030', 'id450']);
    expect(r.unreadable).toEqual(['id030']);
    expect(r.unreached).toEqual(['id450']);
  });

  it('an item whose id or username does not read may be any line missing: none is proven absent', async () => {
    const r = await lookupPasted(server(new Set(['id120']), true).client, ['id120', 'user7', 'nobody'], {
      cancelled: () => false,
      progress: () => {},
      total: 250,
    });
    expect(r.found.get('user7')?.id).toBe('id007');
    expect(r.missing).toEqual(['id120', 'nobody']);
    // The whole list was read, but the item that did not read may be either: neither is "not found",
    // nor said "not readable" (no item of that name was listed): it may be that item.
    expect(r.unidentified).toEqual(['id120', 'nobody']);
    expect(r.nameless).toBe(1);
    expect(r.unreadable).toEqual([]);
    expect(r.unreached).toEqual([]);
  });
});

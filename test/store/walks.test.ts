/**
 * A full walk is complete or fails (issue 22, part 3), in the store: `A` (mark every line matching
 * the filter) and the paste lookup's walk, against the sandbox over HTTP while the proxy deletes a
 * line between two pages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { findInPages } from '../../src/services/paste-lookup';
import { storeOnSandbox } from '../helpers/app';
import { type ProxyConfig, proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const laterPage = (q: URLSearchParams) => Number(q.get('offset') ?? 0) > 0 && !q.get('search');

async function idsNow(client: ApiClient): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.listLines({ offset, limit: 100 });
    ids.push(...page.lines.map((l) => l.id));
    if (page.nextOffset === null) return ids;
  }
}

/** The store on a proxy in front of a sandbox of `lines`; `deleteFirst` deletes the first line by id. */
async function behindProxy(
  lines: number,
  config: (t: { deleteFirst: () => Promise<string> }) => ProxyConfig,
) {
  const env = await sandbox({ lines });
  const deleteFirst = async () => {
    const first = (await env.client.listLines({ offset: 0, limit: 1 })).lines[0]!;
    await env.client.deleteLine({ id: first.id });
    return first.id;
  };
  const { proxy, client } = await proxiedClient(env.sb.baseUrl, config({ deleteFirst }));
  const s = await storeOnSandbox({}, { client, intents: memoryIntentLog(), journal: memoryJournal() }, env);
  return { ...s, proxy, proxied: client, deleteFirst };
}

describe('A while the list changes between pages', () => {
  it('a line deleted after the first page: every live line marked, the deleted one not', async () => {
    const deleted: string[] = [];
    const t = await behindProxy(250, ({ deleteFirst }) => ({
      onList: async (_n, q) => {
        if (laterPage(q) && !deleted.length) deleted.push(await deleteFirst());
      },
    }));
    await t.store.getState().markAllMatching();
    const marked = [...t.store.getState().marked.keys()].sort();
    expect(deleted).toHaveLength(1);
    expect(marked).not.toContain(deleted[0]);
    expect(marked).toEqual((await idsNow(t.client)).sort());
    expect(marked).toHaveLength(249);
    expect(t.store.getState().flash?.text).toMatch(/Marked 249 lines matching the filter/);
  });

  it('a list that keeps changing: nothing marked, and the flash says to run it again', async () => {
    const t = await behindProxy(250, ({ deleteFirst }) => ({
      onList: async (_n, q) => {
        if (laterPage(q)) await deleteFirst();
      },
    }));
    await t.store.getState().markAllMatching();
    expect(t.store.getState().marked.size).toBe(0);
    expect(t.store.getState().markingAll).toBeNull();
    expect(t.store.getState().flash?.text).toBe(
      'Marking stopped, nothing marked: the list changed while reading; run again',
    );
    // Three walks (the first and two more), each stopped at its second page, whose answer had the
    // page after it asked ahead (a read, dropped when the change is seen).
    expect(t.proxy.forwarded.get('GET /v1/lines/all')).toBeLessThanOrEqual(9);
  });
});

describe('the paste lookup walk (servers whose search ignores ids)', () => {
  it('the line that a deletion would move past the page boundary is still found', async () => {
    let deleted = false;
    const t = await behindProxy(250, ({ deleteFirst }) => ({
      onList: async (_n, q) => {
        if (laterPage(q) && !deleted) {
          deleted = true;
          await deleteFirst();
        }
      },
    }));
    // The 101st line by id: once the first line goes, it is the 100th, on the page already read.
    const target = (await idsNow(t.client))[100]!;
    const found = await findInPages(t.proxied, [target]);
    expect(deleted).toBe(true);
    expect(found.get(target)?.id).toBe(target);
  });
});

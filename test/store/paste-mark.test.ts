import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePasteList } from '../../src/domain/paste-list';
import { storeOnSandbox } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Usernames and ids from far apart in the list (never the first page), as a support ticket has. */
const pick = (env: Awaited<ReturnType<typeof sandbox>>) =>
  env.sb.repo.db
    .prepare('SELECT id, username FROM lines WHERE account_id = 1 ORDER BY id LIMIT 6 OFFSET 200')
    .all() as { id: string; username: string }[];

describe('paste to mark', () => {
  it('parses one per line, or separated by spaces, commas or semicolons; quotes and controls dropped; once each', () => {
    expect(parsePasteList('alice\r\nbob, carol;dave\t"erin" \u001b[31m bob').items).toEqual([
      'alice',
      'bob',
      'carol',
      'dave',
      'erin',
      '[31m',
    ]);
    expect(parsePasteList(' \n , ').items).toEqual([]);
  });

  it('marks every pasted username and id found across pages and names the ones not found', async () => {
    const env = await storeOnSandbox({ lines: 400 });
    await env.store.getState().loadLines();
    const rows = pick(env);
    const text = [
      rows[0]!.username,
      `${rows[1]!.username},${rows[2]!.id}`,
      'nobody-at-all-001',
      `"${rows[3]!.username}"`,
      'ghost.user.002',
    ].join('\n');
    await env.store.getState().markPasted(text);
    const s = env.store.getState();
    expect(new Set(s.marked.keys())).toEqual(new Set(rows.slice(0, 4).map((r) => r.id)));
    expect(s.flash?.text).toMatch(/Marked 4 of 6 pasted; not found: nobody-at-all-001, ghost\.user\.002/);
    expect(s.markingAll).toBeNull();
  });

  it('finds ids on a server whose search matches usernames only (one walk over the pages)', async () => {
    const env = await sandbox({ lines: 300 });
    const { client } = await proxiedClient(env.sb.baseUrl, { dialect: { searchIgnoresIds: true } });
    const { store } = await storeOnSandbox({}, { client }, env);
    const rows = pick(env);
    await store.getState().markPasted(rows.map((r) => r.id).join(' '));
    expect(new Set(store.getState().marked.keys())).toEqual(new Set(rows.map((r) => r.id)));
  });

  it('the mark-all key stops it: nothing is marked', async () => {
    const env = await storeOnSandbox({ lines: 300 });
    await env.store.getState().loadLines();
    env.sb.faults.set('latency=40'); // time to press the key while it runs
    const names = pick(env).map((r) => r.username);
    const run = env.store.getState().markPasted(names.join('\n'));
    await vi.waitFor(() => expect(env.store.getState().markingAll).not.toBeNull());
    await env.store.getState().markAllMatching(); // the key's second press: stop
    await run;
    expect(env.store.getState().marked.size).toBe(0);
    expect(env.store.getState().markingAll).toBeNull();
  });
});

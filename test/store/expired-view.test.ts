import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { ServerDate } from '../../src/api/contract';
import { command } from '../../src/commands/keymap';
import { loaded } from '../../src/domain/load';
import { resolveKey } from '../../src/keys/dispatch';
import { handleInput } from '../../src/keys/input';
import { createAppStore } from '../../src/store/app-store';
import { footerHints } from '../../src/ui/layout/Footer';
import { storeOnSandbox } from '../helpers/app';

type Env = Awaited<ReturnType<typeof storeOnSandbox>>;

/** The sandbox's own books: the expired lines' ids, oldest expiry first. */
const expiredIds = (env: Env, now: number, trialOnly = false) =>
  (
    env.sb.repo.db
      .prepare(
        `SELECT id FROM lines WHERE account_id = 1 AND exp_date IS NOT NULL AND exp_date <= ?
         ${trialOnly ? 'AND is_trial = 1' : ''} ORDER BY exp_date, id`,
      )
      .all(now) as { id: string }[]
  ).map((r) => r.id);

/** Every page of the view, turned with the browser's own page key. */
async function walkView(env: Env): Promise<string[]> {
  const s = () => env.store.getState();
  const ids = [...loaded(s().lines)!.lines.map((l) => l.id)];
  while (loaded(s().lines)!.nextOffset !== null) {
    const at = s().offset;
    s().pageNext();
    await vi.waitFor(() => expect(s().offset).toBeGreaterThan(at));
    await vi.waitFor(() => expect(s().lines.status).toBe('ready'));
    ids.push(...loaded(s().lines)!.lines.map((l) => l.id));
  }
  return ids;
}

const setStatusExpired = async (env: Env) => {
  const s = () => env.store.getState();
  while (s().query.status !== 'expired') s().cycleStatus();
  await vi.waitFor(() => expect(s().lines.status).toBe('ready'));
  await vi.waitFor(() => expect(loaded(s().lines)?.lines.length ?? 0).toBeGreaterThan(0));
};

describe('the expired view: the API has no filter, the app builds it from the list sorted by expiry', () => {
  it('shows exactly the expired lines of the books, every one once, oldest first; O shows the newest first', async () => {
    const now = Date.now();
    const env = await storeOnSandbox({ lines: 400 }, { now: () => now });
    await env.store.getState().loadLines();
    await setStatusExpired(env);
    const truth = expiredIds(env, now);
    expect(truth.length).toBeGreaterThan(20); // more than a page: paging is exercised
    expect(loaded(env.store.getState().lines)!.totalHits).toBe(truth.length);
    const seen = await walkView(env);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set(truth));
    const expiry = (id: string) =>
      (env.sb.repo.db.prepare('SELECT exp_date AS e FROM lines WHERE id = ?').get(id) as { e: number }).e;
    expect(seen.map(expiry)).toEqual([...seen.map(expiry)].sort((a, b) => a - b));

    env.store.getState().flipOrder();
    await vi.waitFor(() => expect(env.store.getState().query.orderType).toBe('desc'));
    await vi.waitFor(() => expect(env.store.getState().lines.status).toBe('ready'));
    const newest = await walkView(env);
    expect(newest.map(expiry)).toEqual([...seen.map(expiry)].sort((a, b) => b - a));
    expect(new Set(newest)).toEqual(new Set(truth));
  });

  it('composes with the type filter, and A marks exactly the expired lines', async () => {
    const now = Date.now();
    const env = await storeOnSandbox({ lines: 400 }, { now: () => now });
    await env.store.getState().loadLines();
    env.store.getState().setQuery({ type: 'trial' });
    await setStatusExpired(env);
    const trials = expiredIds(env, now, true);
    expect(loaded(env.store.getState().lines)!.totalHits).toBe(trials.length);
    expect(new Set(await walkView(env))).toEqual(new Set(trials));

    env.store.getState().setQuery({ type: 'all' });
    await vi.waitFor(() => expect(env.store.getState().lines.status).toBe('ready'));
    await env.store.getState().markAllMatching();
    expect(new Set(env.store.getState().marked.keys())).toEqual(new Set(expiredIds(env, now)));
  });

  it('the sort column key says why it does nothing in the view, and the footer leaves it out', async () => {
    const env = await storeOnSandbox({ lines: 100 });
    await env.store.getState().loadLines();
    await setStatusExpired(env);
    const sortKey = command('lines.sortColumn').keys[0]!;
    expect(resolveKey(env.store.getState(), sortKey)?.id).toBe('lines.sortColumn');
    handleInput(env.store, sortKey, {} as never, { copy: async () => ({ ok: false, why: 'test' }) });
    expect(env.store.getState().query.orderBy).toBe('id');
    expect(env.store.getState().flash?.text).toMatch(/expired view is sorted by expiry \(O flips it\)/);
    expect(footerHints(env.store.getState()).some((h) => h.startsWith(`${sortKey} `))).toBe(false);
    env.store.getState().setQuery({ status: 'all' });
    expect(footerHints(env.store.getState()).some((h) => h.startsWith(`${sortKey} `))).toBe(true);
  });

  it('a server whose expiry order does not hold gets an error in the view, never a guess', async () => {
    const NOW = 1_000_000;
    const date = (ms: number): ServerDate => ({ ms, raw: String(ms) });
    const order = [NOW + 5, NOW - 5, NOW + 9, NOW - 9, NOW + 1];
    const client = {
      listLines: async (q?: { offset?: unknown; limit?: unknown }) => {
        const offset = Number(q?.offset ?? 0);
        const lines = order
          .slice(offset, offset + Number(q?.limit ?? 1))
          .map((ms, i) => ({ id: String(offset + i), exp_date: date(ms) }));
        return { offset, limit: 1, totalHits: order.length, nextOffset: null, previousOffset: null, lines };
      },
    } as unknown as ApiClient;
    const store = createAppStore({
      client,
      target: { id: 't', kind: 'sandbox', label: 'T', baseUrl: 'http://127.0.0.1:1' },
      now: () => NOW,
    });
    store.getState().setQuery({ status: 'expired' });
    await vi.waitFor(() => expect(store.getState().lines.status).toBe('error'));
    expect(store.getState().lines).toMatchObject({
      error: expect.stringMatching(/order by expiry does not hold/),
    });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { completePaletteInput, runPalette } from '../../src/commands/palette';
import { loaded } from '../../src/domain/load';
import { createAppStore } from '../../src/store/app-store';
import { selectDialog, selectScreen } from '../../src/store/view-stack';
import { NO_FX, storeOnSandbox } from '../helpers/app';
import { sandbox } from '../helpers/sandbox';

describe('lines store against the sandbox', () => {
  it('start loads the account and the first page together, then the catalog', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().start();
    const s = store.getState();
    expect(s.account.status).toBe('ready');
    expect(loaded(s.lines)?.lines).toHaveLength(10);
    expect(loaded(s.lines)?.totalHits).toBe(60);
    // What the first screen does not show follows it, without being waited for.
    expect(s.packages.status).toBe('loading');
    // Both load together: either may land first.
    await vi.waitFor(() => expect(store.getState().packages.status).toBe('ready'));
    await vi.waitFor(() => expect(store.getState().bouquets.status).toBe('ready'));
  });

  it('page moves pressed while a page loads are counted, not dropped (ten PgDn move ten pages)', async () => {
    const { store } = await storeOnSandbox({ lines: 300 });
    await store.getState().loadLines();
    for (let i = 0; i < 10; i++) store.getState().pageNext(); // all before the first answer
    await vi.waitFor(() => expect(store.getState().lines.status).toBe('ready'));
    await vi.waitFor(() => expect(store.getState().offset).toBe(100));
    for (let i = 0; i < 3; i++) store.getState().pagePrev();
    await vi.waitFor(() => expect(store.getState().offset).toBe(70));
    // Never past the last page: 300 lines are 30 pages of 10.
    for (let i = 0; i < 40; i++) store.getState().pageNext();
    await vi.waitFor(() => expect(store.getState().offset).toBe(290));
    expect(loaded(store.getState().lines)!.lines).toHaveLength(10);
  });

  it('pages forward and back; the cursor crosses page edges', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines();
    const first = loaded(store.getState().lines)!.lines.map((l) => l.id);
    store.getState().pageNext();
    await vi.waitFor(() => expect(store.getState().offset).toBe(10));
    const second = loaded(store.getState().lines)!.lines.map((l) => l.id);
    expect(second.some((id) => first.includes(id))).toBe(false);
    store.getState().moveCursor(-1); // from row 0 of page 2 to the last row of page 1
    await vi.waitFor(() => expect(store.getState().offset).toBe(0));
    expect(store.getState().cursor).toBe(9);
    store.getState().lastLine();
    await vi.waitFor(() => expect(store.getState().offset).toBe(50));
    expect(store.getState().cursor).toBe(9);
  });

  it('the next page is prefetched: turning to it sends no new request', async () => {
    const { store, sb } = await storeOnSandbox();
    const seen: string[] = [];
    const original = sb.service.list.bind(sb.service);
    sb.service.list = (acct, q) => {
      seen.push(String((q as { offset?: string }).offset));
      return original(acct, q);
    };
    await store.getState().loadLines();
    await vi.waitFor(() => expect(seen).toEqual(['0', '10']));
    store.getState().pageNext();
    await vi.waitFor(() => expect(store.getState().offset).toBe(10));
    await vi.waitFor(() => expect(seen).toEqual(['0', '10', '20'])); // only the next prefetch
  });

  it('search (debounced), filters and sort change the query and start from the first page', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines();
    store.getState().pageNext();
    await vi.waitFor(() => expect(store.getState().offset).toBe(10));
    const name = loaded(store.getState().lines)!.lines[0]!.username;
    store.getState().openSearch();
    store.getState().setSearchDraft(name.slice(0, 6));
    await vi.waitFor(() => expect(store.getState().query.search).toBe(name.slice(0, 6)));
    await vi.waitFor(() => expect(store.getState().lines.status).toBe('ready'));
    expect(store.getState().offset).toBe(0);
    expect(loaded(store.getState().lines)!.lines.map((l) => l.username)).toContain(name);
    store.getState().clearSearch();
    store.getState().cycleStatus();
    await vi.waitFor(() => expect(store.getState().query.status).toBe('active'));
    store.getState().cycleSort();
    store.getState().flipOrder();
    await vi.waitFor(() => expect(store.getState().lines.status).toBe('ready'));
    const exps = loaded(store.getState().lines)!.lines.map((l) => l.username);
    expect(store.getState().query).toMatchObject({ orderBy: 'username', orderType: 'desc', search: '' });
    expect([...exps].sort().reverse()).toEqual(exps);
  });

  it('a response that arrives after a newer request never overwrites it', async () => {
    // The real client, observed: every listLines promise is kept so the test can await them all.
    const calls: Promise<unknown>[] = [];
    const env = await sandbox();
    const listLines: typeof env.client.listLines = (...a) => {
      const p = env.client.listLines(...a);
      calls.push(p.catch(() => {}));
      return p;
    };
    const store = createAppStore({
      client: { ...env.client, listLines },
      target: { id: 'sandbox:test', kind: 'sandbox', label: 'SANDBOX', baseUrl: env.sb.baseUrl },
      pageSize: 10,
    });
    // Count the server's fault draws, to know when request A has arrived and drawn its latency.
    let drawn = 0;
    const draw = env.sb.faults.draw.bind(env.sb.faults);
    env.sb.faults.draw = (m) => {
      drawn++;
      return draw(m);
    };
    env.sb.faults.set('latency=300');
    store.getState().setQuery({ status: 'suspended' }); // A: slow
    await vi.waitFor(() => expect(drawn).toBe(1));
    env.sb.faults.set('');
    store.getState().setQuery({ status: 'active' }); // B: fast, newer
    await vi.waitFor(() => expect(store.getState().lines.status).toBe('ready'));
    await Promise.all(calls); // the slow answer has landed
    await new Promise((r) => setImmediate(r));
    expect(store.getState().query.status).toBe('active');
    for (const l of loaded(store.getState().lines)!.lines) expect(l.enabled).toBe(true);
  });

  it('marks persist across pages, filters and searches; A marks every match', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines();
    store.getState().toggleMark();
    const firstId = loaded(store.getState().lines)!.lines[0]!.id;
    store.getState().pageNext();
    await vi.waitFor(() => expect(store.getState().offset).toBe(10));
    store.getState().togglePage();
    expect(store.getState().marked.size).toBe(11);
    store.getState().setQuery({ status: 'suspended' });
    await vi.waitFor(() => expect(store.getState().query.status).toBe('suspended'));
    expect(store.getState().marked.has(firstId)).toBe(true);
    await store.getState().markAllMatching();
    const suspended = loaded(store.getState().lines)!.totalHits;
    expect(store.getState().marked.size).toBeGreaterThanOrEqual(11);
    expect(store.getState().marked.size).toBeLessThanOrEqual(11 + suspended);
    store.getState().clearMarks();
    expect(store.getState().marked.size).toBe(0);
  });

  it('an error is kept as error state; refresh retries', async () => {
    const { store, sb } = await storeOnSandbox();
    sb.faults.set('error500=1');
    await store.getState().loadLines();
    // The failure is the load's error, with the page it had (none yet) kept as its data.
    expect(store.getState().lines).toEqual({ status: 'error', error: expect.stringMatching(/request/) });
    sb.faults.set('');
    await store.getState().refreshLines();
    expect(store.getState().lines.status).toBe('ready');
  });

  it('a failed reload keeps the page on screen as its data; a row changed meanwhile keeps the failure', async () => {
    const { store, sb } = await storeOnSandbox();
    await store.getState().loadLines();
    const page = loaded(store.getState().lines)!;
    expect(store.getState().lines.status).toBe('ready');
    sb.faults.set('error500=1');
    await store.getState().refreshLines();
    expect(store.getState().lines).toMatchObject({ status: 'error', data: page });
    // A change's line lands in the page kept; the failure stays said until a page loads.
    const changed = { ...page.lines[0]!, username: 'renamed-here' };
    store.getState().replaceLine(changed);
    expect(store.getState().lines.status).toBe('error');
    expect(loaded(store.getState().lines)!.lines[0]).toEqual(changed);
    sb.faults.set('');
    await store.getState().refreshLines();
    expect(store.getState().lines.status).toBe('ready');
  });

  it('the page size follows the terminal and keeps the line under the cursor', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines({ offset: 10 });
    store.getState().moveCursor(5); // absolute line 15
    const id = loaded(store.getState().lines)!.lines[5]!.id;
    store.getState().setPageSize(4);
    await vi.waitFor(() => expect(store.getState().pageSize).toBe(4));
    await vi.waitFor(() => expect(loaded(store.getState().lines)!.lines.length).toBe(4));
    expect(store.getState().offset).toBe(12);
    expect(loaded(store.getState().lines)!.lines[store.getState().cursor]!.id).toBe(id);
  });

  it('account counts come from totalHits of filtered queries', async () => {
    const { store, client } = await storeOnSandbox();
    await store.getState().loadCounts();
    const c = store.getState().counts;
    expect(c.status).toBe('ready');
    const expected = (await client.listLines({ status: 'suspended', limit: 1 })).totalHits;
    expect(c.status === 'ready' && c.data.suspended).toBe(expected);
    expect(c.status === 'ready' && c.data.premium + c.data.trial).toBe(60);
  });
});

describe('palette', () => {
  it('runs commands, keeps history, and reports unknown ones', async () => {
    const { store } = await storeOnSandbox();
    const s = () => store.getState();
    s().openPalette();
    s().setPaletteInput('fil');
    completePaletteInput(s());
    expect(s().paletteInput).toBe('filter ');
    s().setPaletteInput('filter expiri');
    completePaletteInput(s());
    expect(s().paletteInput).toBe('filter expiring ');
    runPalette(s(), NO_FX);
    expect(s().query.status).toBe('expiring');
    expect(selectDialog(s())).toBeNull();
    s().openPalette();
    s().setPaletteInput('frobnicate');
    runPalette(s(), NO_FX);
    expect(s().flash?.text).toMatch(/Unknown command/);
    s().paletteHistoryStep(-1);
    expect(s().paletteInput).toBe('filter expiring');
    s().setPaletteInput('acc');
    runPalette(s(), NO_FX);
    expect(selectScreen(s()).id).toBe('account');
  });
});

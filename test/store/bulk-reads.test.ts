/**
 * The screens' bulk job spends its rate budget on its changes (issue 27): marked lines carry their
 * list items; the job reads them again once just before it spends (the marks may be old: see
 * services/changes/fresh-lines.ts), by one walk of the list or a search per line, whichever costs
 * fewer requests, and the balance once before the first request (the witness of what the job costs;
 * the preview reads it too as it opens, to judge the job against the balance now). Marking a pasted
 * list costs the list's pages, the first page
 * read to learn the total being the walk's first. Counted at a proxy in front of the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { walkPagesFor } from '../../src/services/paste-lookup';
import { bulkBlocker } from '../../src/store/bulk-slice';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { books, sandbox } from '../helpers/sandbox';
import { until } from '../helpers/wait';

/** A store whose client goes through a counting proxy, with in-memory intent log and journal. */
const proxiedStore = async (env: Awaited<ReturnType<typeof sandbox>>) => {
  const { proxy, client } = await proxiedClient(env.sb.baseUrl);
  const { store } = await storeOnSandbox(
    {},
    { client, intents: memoryIntentLog(), journal: memoryJournal() },
    env,
  );
  return { proxy, store };
};

describe('a bulk job from marked lines', () => {
  it('reads the list once (the cheaper way) and the balance once before the first request; each marked line extended once', async () => {
    const env = await sandbox({ lines: 150, credits: 100_000 });
    const { proxy, store } = await proxiedStore(env);
    await store.getState().loadAccount();
    await store.getState().loadCatalog();
    const lines = (await env.client.listLines({ limit: 100, type: 'premium' })).lines.slice(0, 40);
    store.getState().markLines(lines);
    proxy.set({});
    store.getState().openBulk('extend');
    await store.getState().bulkStart();
    const job = store.getState().bulk!.job;
    expect(job.lines.map((l) => l.state)).toEqual(lines.map(() => 'done'));
    // 40 lines of 150: a walk (2 pages at most), not 40 searches; here the first page holds all 40.
    expect(walkPagesFor(150)).toBe(2);
    expect(proxy.received.get('GET /v1/lines/all') ?? 0).toBe(1);
    // Once as the preview opens (what it quotes against), once just before the first request.
    expect(proxy.received.get('GET /v1/me')).toBe(2);
    expect(proxy.received.get('PUT /v1/lines/extend')).toBe(lines.length);
    const perLine = new Map<string, number>();
    for (const r of books(env.sb).ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
    expect([...perLine.values()]).toEqual(lines.map(() => 1));
  });
});

describe('the bulk preview', () => {
  it('reads the balance as it opens: a spend elsewhere since the last read is in what it judges', async () => {
    const env = await sandbox({ lines: 40, credits: 40 });
    const { proxy, store } = await proxiedStore(env);
    const s = () => store.getState();
    await s().loadAccount();
    await s().loadCatalog();
    const premium = (await env.client.listLines({ limit: 100, type: 'premium' })).lines;
    const [marked, others] = [premium.slice(0, 4), premium.slice(4)];
    s().markLines(marked);
    // What the job costs, as its preview plans it.
    s().openBulk('extend');
    const total = s()
      .bulk!.job.lines.map((l) => l.cost ?? 0)
      .reduce((a, b) => a + b, 0);
    s().bulkClose();
    await until(() => s().account.status === 'ready');
    expect(loaded(s().account)!.credits).toBeGreaterThanOrEqual(total);
    // Another client (another panel, the same key) spends until the balance no longer pays for it.
    for (const other of others) {
      if ((await env.client.me()).credits < total) break;
      await env.client.extendLine({ id: other.id, duration: 1 });
    }
    const now = (await env.client.me()).credits;
    expect(now).toBeLessThan(total);
    proxy.set({});
    s().openBulk('extend');
    await until(() => s().account.status === 'ready');
    // Judged against the balance now, not the one read before that spend: the job does not start.
    expect(loaded(s().account)!.credits).toBe(now);
    expect(bulkBlocker(s().bulk!, loaded(s().account)!.credits)).toMatch(/^The total exceeds the balance/);
    await s().bulkStart();
    expect(s().bulk!.phase).toBe('preview');
    expect(proxy.received.get('PUT /v1/lines/extend') ?? 0).toBe(0);
  });
});

describe('marking a pasted list', () => {
  it('150 ids, the size of the list not known: the first page decides and starts the walk', async () => {
    const env = await sandbox({ lines: 300 });
    const { proxy, client } = await proxiedClient(env.sb.baseUrl);
    const { store } = await storeOnSandbox({}, { client }, env);
    const ids: string[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const page = await env.client.listLines({ offset, limit: 100 });
      ids.push(...page.lines.map((l) => l.id));
      offset = page.nextOffset;
    }
    // The last 150: the walk reads to the end to find them.
    const pasted = ids.slice(-150);
    await store.getState().markPasted(pasted.join('\n'));
    expect([...store.getState().marked.keys()].sort()).toEqual([...pasted].sort());
    expect(proxy.received.get('GET /v1/lines/all')).toBe(walkPagesFor(300));
  });
});

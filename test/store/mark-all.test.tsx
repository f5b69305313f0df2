/**
 * `A` on a few thousand lines (issue 27, part 2), against the sandbox over HTTP: every line once
 * while the list changes under the walk, the next page asked as each is read, marks kept compactly with what a bulk
 * job needs, progress throttled on the store's clock, and the preview's totals.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { createClient } from '../../src/api/client';
import { extendEstimate } from '../../src/domain/estimate';
import type { Months } from '../../src/domain/steps';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { loaded } from '../../src/store/types';
import { renderApp, storeOnSandbox } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function allLines(client: ReturnType<typeof createClient>) {
  const lines = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.listLines({ offset, limit: 100 });
    lines.push(...page.lines);
    if (page.nextOffset === null) return lines;
  }
}

/** The store behind a proxy that counts list requests in flight; `onLater` runs before a later page. */
async function marking(lines: number, onLater?: (deleteFirst: () => Promise<string>) => Promise<void>) {
  const env = await sandbox({ lines });
  const deleteFirst = async () => {
    const first = (await env.client.listLines({ offset: 0, limit: 1 })).lines[0]!;
    await env.client.deleteLine({ id: first.id });
    return first.id;
  };
  let inFlight = 0;
  let most = 0;
  const { client } = await proxiedClient(env.sb.baseUrl, {
    onList: async (_n, q) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Held a moment so a page asked ahead is in flight beside it (polled, not slept on).
      await new Promise((r) => setImmediate(r));
      if (Number(q.get('offset') ?? 0) > 0) await onLater?.(deleteFirst);
      inFlight--;
    },
  });
  // The store's clock stands still: progress may reach the store only as often as it allows.
  const s = await storeOnSandbox(
    {},
    { client, intents: memoryIntentLog(), journal: memoryJournal(), now: () => 1_800_000_000_000 },
    env,
  );
  return { ...s, most: () => most };
}

describe('A on 3,000 lines', () => {
  it('marks every live line once while a line is deleted mid-walk, one request at a time', async () => {
    let deleted: string | null = null;
    let later = 0;
    const t = await marking(3000, async (deleteFirst) => {
      if (++later === 12 && !deleted) deleted = await deleteFirst();
    });
    await t.store.getState().markAllMatching();
    const live = await allLines(t.client);
    const marked = t.store.getState().marked;
    expect(deleted).not.toBeNull();
    expect(marked.has(deleted!)).toBe(false);
    expect([...marked.keys()].sort()).toEqual(live.map((l) => l.id).sort());
    expect(marked.size).toBe(2999);
    expect(t.store.getState().flash?.text).toMatch(/Marked 2,999 lines matching the filter/);
    // The walker asks for a page only once the one before it was answered (its read-ahead goes out on
    // the answer, before the parse): never two at the server at once, so its reads keep their order.
    expect(t.most()).toBe(1);
  });

  it('keeps what a bulk job and an export need, in a compact copy', async () => {
    const t = await marking(400);
    await t.store.getState().markAllMatching();
    const byId = new Map((await allLines(t.client)).map((l) => [l.id, l]));
    for (const m of t.store.getState().marked.values()) {
      const l = byId.get(m.id)!;
      expect(m.username).toBe(l.username);
      const { start_date, created_at, ...kept } = l;
      expect(m.line).toEqual({ ...kept, start_date: null, created_at: null });
      // Not the parsed item itself: the page it came in is not kept alive by the marks.
      expect(m.line).not.toBe(l);
    }
    // The bulk job starts from the marks: each line's before is the server's line.
    t.store.getState().openBulk('extend');
    const job = t.store.getState().bulk!.job;
    expect(job.lines).toHaveLength(400);
    for (const bl of job.lines) {
      const l = byId.get(bl.id)!;
      expect(bl.before).toEqual({
        expMs: l.exp_date?.ms ?? null,
        expRaw: l.exp_date?.raw ?? null,
        connections: l.connections,
        enabled: l.enabled,
        isTrial: l.is_trial,
      });
    }
  });

  it('progress reaches the store at most once per 100 ms of the store clock (here: never)', async () => {
    const t = await marking(3000);
    const seen: unknown[] = [];
    const off = t.store.subscribe((s, prev) => {
      if (s.markingAll !== prev.markingAll) seen.push(s.markingAll);
    });
    await t.store.getState().markAllMatching();
    off();
    // The start (none yet) and the end (null); the 31 pages between said nothing.
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ lines: 0 });
    expect(seen[1]).toBeNull();
    expect(t.store.getState().marked.size).toBe(3000);
  });

  it('tells the app a heavy walk runs from the first page to the last, stopped or failed too', async () => {
    const events: string[] = [];
    const heavyWork = () => {
      events.push('begin');
      return () => events.push('end');
    };
    const env = await sandbox({ lines: 250 });
    const { store } = await storeOnSandbox({}, { heavyWork }, env);
    let pagesAtBegin = -1;
    const original = env.sb.service.list.bind(env.sb.service);
    let lists = 0;
    env.sb.service.list = (acct, q) => {
      lists++;
      if (events.length === 1 && pagesAtBegin < 0) pagesAtBegin = lists;
      return original(acct, q);
    };
    await store.getState().markAllMatching();
    expect(events).toEqual(['begin', 'end']);
    expect(pagesAtBegin).toBe(1); // begun before the first page was asked
    expect(store.getState().marked.size).toBe(250);
    // Stopped (`A` again while it walks): ended once.
    store.getState().clearMarks();
    const walk = store.getState().markAllMatching();
    await store.getState().markAllMatching();
    await walk;
    expect(events).toEqual(['begin', 'end', 'begin', 'end']);
    // Failed (the server answers 500): ended once.
    env.sb.service.list = () => {
      throw new Error('boom');
    };
    await store.getState().markAllMatching();
    expect(store.getState().flash?.text).toMatch(/Marking stopped, nothing marked/);
    expect(events).toEqual(['begin', 'end', 'begin', 'end', 'begin', 'end']);
  });

  it('the preview totals what the marked lines cost, and follows the months', async () => {
    const app = await renderApp({ lines: 300, credits: 1_000_000 });
    await app.waitFrame((f) => /of 300/.test(f));
    await app.press('lines.markAll');
    await app.waitFrame((f) => f.includes('300 marked'));
    const expected = (months: Months) => {
      const packages = loaded(app.store.getState().packages) ?? [];
      return [...app.store.getState().marked.values()]
        .filter((m) => !m.line.is_trial)
        .reduce((sum, m) => sum + extendEstimate(packages, months, m.line.connections)!.cost, 0);
    };
    const total = () => Number(/Total ([\d,]+) credits?/.exec(app.frame())?.[1]?.replace(/,/g, '') ?? -1);
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('Extend 300 marked lines') && /Total [\d,]+ credits/.test(f));
    expect(total()).toBe(expected(1));
    await app.press('bulk.increase');
    await app.waitFrame((f) => /‹ \d+ months ›/.test(f));
    const months = app.store.getState().bulk!.job.months;
    expect(months).toBeGreaterThan(1);
    expect(total()).toBe(expected(months));
  });
});

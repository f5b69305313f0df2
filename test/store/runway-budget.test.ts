/**
 * The header's runway spends no rate budget on a change it can follow (issue 27): a done line's reply
 * carries the server's row, and the runway's lines follow it locally; a walk over every expiring
 * line's pages is left for a row that is not known. Requests counted at a proxy in front of the
 * sandbox; the runway shown is compared with a fresh walk's.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import { DAY_MS } from '../../src/domain/pricing';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { fetchRunwayLines, runwayOf } from '../../src/services/runway';
import { RUNWAY_FRESH_MS, selectRunway } from '../../src/store/runway-slice';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

const LIST = 'GET /v1/lines/all';

async function setup(now?: () => number) {
  const env = await sandbox({ lines: 40, credits: 100_000 });
  const proxy = await faultProxy(env.sb.baseUrl);
  const inner = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(async () => {
    await inner.close();
    await proxy.close();
  });
  // Requests under way, so a test waits for every read a change starts (a page's prefetch too).
  let pending = 0;
  const client = new Proxy(inner, {
    get(target, key) {
      const v = Reflect.get(target, key, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const out = v.apply(target, args);
        if (out instanceof Promise) {
          pending++;
          out.then(
            () => pending--,
            () => pending--,
          );
        }
        return out;
      };
    },
  });
  const { store } = await storeOnSandbox(
    {},
    { client, intents: memoryIntentLog(), journal: memoryJournal(), ...(now ? { now } : {}) },
    env,
  );
  const s = () => store.getState();
  await Promise.all([s().loadAccount(), s().loadLines({ offset: 0 }), s().loadCatalog()]);
  const lists = () => proxy.received.get(LIST) ?? 0;
  const all: LineListItem[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const p = await env.client.listLines({ offset, limit: 100, type: 'premium', status: 'all' });
    all.push(...p.lines.filter((l) => l.enabled));
    offset = p.nextOffset;
  }
  /** A change through the screens' single-change dialog, and the reads its end starts, settled. */
  const change = async (o: Parameters<ReturnType<typeof s>['openAction']>[0]) => {
    // The lines were read just now (`all`): a change does not read them again before sending.
    s().openAction({ readAt: (now ?? Date.now)(), ...o });
    await until(() => s().action?.quote.status === 'ready');
    s().setActionTyped('');
    await s().confirmAction();
    expect(s().action?.phase).toBe('done');
    await until(() => pending === 0 && s().account.status === 'ready' && s().lines.status === 'ready');
    s().closeAction();
  };
  /** The runway shown against a fresh walk's at the same moment and window. */
  const asFresh = async () => {
    const shown = loaded(s().runway)!;
    const fresh = await fetchRunwayLines(env.client, shown.days, shown.at);
    const ids = (ls: readonly LineListItem[]) => ls.map((l) => l.id).sort();
    expect(ids(shown.lines)).toEqual(ids(fresh.lines));
    const plan = selectRunway(s())!;
    const packages = loaded(s().packages)!;
    const freshPlan = runwayOf(fresh, packages, loaded(s().account)!.credits);
    expect(plan.rows.map((r) => [r.line.id, r.cost, r.covered])).toEqual(
      freshPlan.rows.map((r) => [r.line.id, r.cost, r.covered]),
    );
    expect([plan.needed, plan.coveredDays, plan.covers]).toEqual([
      freshPlan.needed,
      freshPlan.coveredDays,
      freshPlan.covers,
    ]);
  };
  /** The lists a change reads with no runway shown (the dialog's, the page's): what any change costs. */
  const costOf = async (o: Parameters<typeof change>[0]) => {
    const from = lists();
    await change(o);
    return lists() - from;
  };
  /** The header's runway, read once (a walk); its cost. */
  const showRunway = async () => {
    const from = lists();
    await s().loadRunway();
    return lists() - from;
  };
  return { env, store, s, lists, all, change, costOf, showRunway, asFresh, until };
}

describe('the header runway after a single change', () => {
  it('an extend of a line far outside the window walks nothing; the runway stays a fresh walk', async () => {
    const t = await setup();
    const beyond = Date.now() + 35 * DAY_MS;
    const far = t.all.filter((l) => (l.exp_date?.ms ?? 0) > beyond);
    expect(far.length).toBeGreaterThanOrEqual(2);
    // What the change reads of itself, with no runway on screen.
    const own = await t.costOf({ op: 'extend', line: far[0]! });
    expect(await t.showRunway()).toBeGreaterThan(2);
    // The list by id: the row replaced in place is the page the server would list, so no page is
    // read either (and the header's balance is the reply's).
    expect(own).toBe(0);
    // With the runway shown: the same reads, no walk.
    expect(await t.costOf({ op: 'extend', line: far[1]! })).toBe(own);
    await t.asFresh();
  });

  it('the list ordered by expiry is read again after an extend (the line may move); the runway is not', async () => {
    const t = await setup();
    await t.showRunway();
    t.s().setQuery({ orderBy: 'exp_date' });
    await t.until(() => t.s().lines.status === 'ready');
    const line = loaded(t.s().lines)!.lines.find(
      (l) => l.enabled && !l.is_trial && (l.exp_date?.ms ?? 0) > Date.now(),
    )!;
    expect(await t.costOf({ op: 'extend', line })).toBeGreaterThan(0);
    const fresh = await t.env.client.listLines({
      offset: 0,
      limit: 10,
      orderBy: 'exp_date',
      orderType: 'asc',
    });
    expect(loaded(t.s().lines)!.lines.map((l) => l.id)).toEqual(fresh.lines.map((l) => l.id));
    await t.asFresh();
  });

  it('an extend and an upgrade of lines inside the window: the runway follows them, walks nothing', async () => {
    const t = await setup();
    const beyond = Date.now() + 35 * DAY_MS;
    const far = t.all.filter((l) => (l.exp_date?.ms ?? 0) > beyond);
    const extendCost = await t.costOf({ op: 'extend', line: far[0]! });
    const upgradeCost = await t.costOf({
      op: 'upgrade',
      line: far[1]!,
      connections: far[1]!.connections === 6 ? 5 : far[1]!.connections + 1,
    });
    await t.showRunway();
    const inside = loaded(t.s().runway)!.lines.filter((l) => l.enabled && !l.is_trial);
    expect(inside.length).toBeGreaterThanOrEqual(2);
    expect(await t.costOf({ op: 'extend', line: inside[0]! })).toBe(extendCost);
    await t.asFresh();
    const up = inside[1]!;
    expect(
      await t.costOf({ op: 'upgrade', line: up, connections: up.connections === 6 ? 5 : up.connections + 1 }),
    ).toBe(upgradeCost);
    await t.asFresh();
  });

  it('a trial created joins the runway from its reply, no walk; the page is read again once', async () => {
    const t = await setup();
    await t.showRunway();
    const pkg = loaded(t.s().packages)!.find((p) => p.is_trial)!;
    const total = loaded(t.s().lines)!.totalHits;
    const before = t.lists();
    await t.change({ op: 'trial', body: { duration: pkg.duration as 12, username: 'runwaytrial01' }, pkg });
    // The page (the dialog's refresh and the job's end share its request) and the next page's prefetch.
    expect(t.lists() - before).toBe(2);
    expect(loaded(t.s().lines)!.totalHits).toBe(total + 1);
    expect(loaded(t.s().runway)!.lines.some((l) => l.username === 'runwaytrial01')).toBe(true);
    await t.asFresh();
  });

  it('a runway older than RUNWAY_FRESH_MS is walked again at the end of a change, once', async () => {
    let offset = 0;
    const t = await setup(() => Date.now() + offset);
    const beyond = Date.now() + 35 * DAY_MS;
    const far = t.all.filter((l) => (l.exp_date?.ms ?? 0) > beyond);
    const walk = await t.showRunway();
    expect(await t.costOf({ op: 'extend', line: far[0]! })).toBe(0);
    offset = RUNWAY_FRESH_MS + 1;
    expect(await t.costOf({ op: 'extend', line: far[1]! })).toBe(walk);
    expect(loaded(t.s().runway)!.at).toBeGreaterThan(Date.now());
  });
});

/**
 * Money safety against servers that are not our sandbox (issue #12, items 1, 2, 9, 10): the real
 * sandbox behind the fault-and-dialect proxy, through the real client.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { loaded } from '../../src/domain/load';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { type Dialect, faultProxy, type ProxyConfig } from '../helpers/fault-proxy';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

async function behindProxy(config: ProxyConfig) {
  const env = await sandbox({ lines: 60 });
  const proxy = await faultProxy(env.sb.baseUrl, config);
  const client = createClient({
    baseUrl: proxy.baseUrl,
    apiKey: DEMO_KEY,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
  cleanups.push(async () => {
    await client.close();
    await proxy.close();
  });
  const sleep = () => new Promise<void>((r) => setTimeout(r, 2));
  const s = await storeOnSandbox(
    {},
    { client, intents: memoryIntentLog(), journal: memoryJournal(), sleep },
    env,
  );
  await s.store.getState().start();
  await until(() => s.store.getState().packages.status === 'ready');
  return { ...s, proxy, client };
}

/** A single extend whose reply is lost after the server applied it. */
async function lostExtend(dialect: Dialect) {
  const t = await behindProxy({
    dialect,
    rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } }],
  });
  const line = loaded(t.store.getState().lines)!.lines.find((l) => !l.is_trial)!;
  await openQuoted(t.store, { op: 'extend', line });
  await t.store.getState().confirmAction();
  return { ...t, line };
}

describe('an extend whose reply is lost, on servers that speak differently', () => {
  it.each<[string, Dialect]>([
    ['ISO dates', {}],
    ["Date.toString dates (the real service's samples)", { dates: 'toString' }],
    ['the long date form', { dates: 'long' }],
    ['numbers and booleans as strings', { strings: true, dates: 'long' }],
    ['a search that ignores ids (item 2)', { searchIgnoresIds: true, dates: 'toString' }],
  ])('%s: checked and reported applied, charged what the balance says (item 1)', async (_name, dialect) => {
    const t = await lostExtend(dialect);
    const a = t.store.getState().action!;
    expect(a.phase).toBe('done');
    expect(a.message).toMatch(/^Applied: the server shows the change\. Charged \d+ credits?/);
    expect(books(t.sb).ledger).toHaveLength(1);
    expect(a.job!.lines[0]!.deducedCredits).toBe(books(t.sb).ledger[0]!.amount);
    // A second extend of the same line is a new decision of the user's, not a retry of this one.
    expect(t.proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
  });

  it('a search that lags shows the old line: "unknown", never "not applied"; r later proves it applied', async () => {
    const t = await lostExtend({ searchLag: 4 });
    const a = t.store.getState().action!;
    expect(a.phase).toBe('unknown');
    expect(a.message).toContain(t.line.id);
    expect(a.message).toContain(t.line.username);
    // The user checks again once the index has caught up.
    for (let i = 0; i < 3 && t.store.getState().action!.phase === 'unknown'; i++)
      await t.store.getState().recheckAction();
    expect(t.store.getState().action!.phase).toBe('done');
    expect(books(t.sb).ledger).toHaveLength(1);
  });

  it('an expiry the app cannot read is compared as text: the check still proves the extend', async () => {
    // The long form with a weekday that does not match: not understood, so kept as text.
    const t = await lostExtend({ dates: 'long' });
    expect(t.store.getState().action!.phase).toBe('done');
  });
});

describe('paging that cannot be trusted (item 9)', () => {
  it.each<['stuckOffset' | 'repeatIds']>([['stuckOffset'], ['repeatIds']])(
    '%s: mark-all stops with the reason after a bounded number of requests, marking nothing',
    async (kind) => {
      const t = await behindProxy({ rules: [{ match: 'GET /v1/lines/all', fault: { kind } }] });
      const before = t.proxy.forwarded.get('GET /v1/lines/all') ?? 0;
      await t.store.getState().markAllMatching();
      expect(t.store.getState().flash?.text).toMatch(
        /Marking stopped, nothing marked: the server's paging cannot be trusted/,
      );
      expect(t.store.getState().marked.size).toBe(0);
      expect((t.proxy.forwarded.get('GET /v1/lines/all') ?? 0) - before).toBeLessThanOrEqual(2);
    },
  );

  it('A again stops a long walk; without faults every line is marked once', async () => {
    const t = await behindProxy({ rules: [{ match: 'GET /v1/lines/all', fault: { kind: 'slow', ms: 40 } }] });
    const walking = t.store.getState().markAllMatching();
    await until(() => t.store.getState().markingAll !== null);
    await t.store.getState().markAllMatching(); // A again
    await walking;
    expect(t.store.getState().markingAll).toBeNull();
    expect(t.store.getState().marked.size).toBe(0);
    t.proxy.set({});
    await t.store.getState().markAllMatching();
    expect(t.store.getState().marked.size).toBe(60);
  });
});

describe('one bad item (item 10)', () => {
  it('a page with an unreadable line keeps its good lines and names the bad one', async () => {
    const t = await behindProxy({ rules: [{ match: 'GET /v1/lines/all', fault: { kind: 'badItem' } }] });
    await t.store.getState().loadLines({ offset: 0, force: true });
    const page = loaded(t.store.getState().lines)!;
    expect(t.store.getState().lines.status).toBe('ready');
    expect(page.lines.length).toBeGreaterThan(0);
    expect(page.unreadable).toHaveLength(1);
    expect(page.unreadable[0]!.field).toBe('id');
  });
});

/**
 * Issue 22, item 5: a request that provably never left (the connection refused) is "not sent" — not a
 * refusal by the service, with its own words and journal outcome — and a bulk job whose service goes
 * away pauses (no new requests; it says so and probes) and goes on when the service answers again,
 * instead of failing every remaining line.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { Marks } from '../../src/domain/marks';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

async function setup(unreachableMs = 10_000) {
  const env = await sandbox({ lines: 30 });
  let onExtend = (_n: number) => {};
  let extends_ = 0;
  const proxy = await faultProxy(env.sb.baseUrl, {
    rules: [{ match: 'PUT /v1/lines/extend', fault: { kind: 'slow', ms: 0 } }],
    onFault: (route) => {
      if (route === 'PUT /v1/lines/extend') onExtend(++extends_);
    },
  });
  const client = createClient({
    baseUrl: proxy.baseUrl,
    apiKey: DEMO_KEY,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
  cleanups.push(async () => {
    await client.close();
    await proxy.close();
  });
  const journal = memoryJournal();
  const { store } = await storeOnSandbox(
    {},
    {
      client,
      journal,
      intents: memoryIntentLog(),
      bulkConcurrency: 1,
      unreachableMs,
      sleep: () => new Promise<void>((r) => setTimeout(r, 2)),
    },
    env,
  );
  await store.getState().loadCatalog();
  const lines = (await env.client.listLines({ limit: 30, type: 'premium' })).lines.slice(0, 6);
  return { env, proxy, store, journal, lines, onExtend: (f: (n: number) => void) => (onExtend = f) };
}

describe('a service that cannot be reached', () => {
  it('a single change whose connection is refused is "not sent", not "refused"', async () => {
    const { env, proxy, store, journal, lines } = await setup();
    // The line read just now (as a page the screen loaded): not read again before sending.
    await openQuoted(store, { op: 'extend', line: lines[0]!, readAt: Date.now() });
    await proxy.down();
    await store.getState().confirmAction();
    const a = store.getState().action!;
    expect(a.phase).toBe('failed');
    expect(a.message).toMatch(/^Not sent: .*Nothing reached the service/);
    expect(journal.entries.at(-1)?.outcome).toBe('not sent');
    expect(books(env.sb).ledger).toHaveLength(0);
  });

  it('a bulk job pauses while the service is down and goes on when it is back: every line once', async () => {
    const { env, proxy, store, lines, onExtend } = await setup();
    onExtend((n) => {
      if (n === 2) void proxy.down();
    });
    store.setState({
      marked: Marks.of(lines),
    });
    store.getState().openBulk('extend');
    const running = store.getState().bulkStart();
    await until(() => Boolean(store.getState().bulk?.paused));
    expect(store.getState().bulk!.paused).toMatch(/cannot be reached.*nothing is being sent/);
    // Paused: nothing failed, nothing more sent.
    expect(store.getState().bulk!.job.lines.filter((l) => l.state === 'failed')).toHaveLength(0);
    await proxy.up();
    await running;
    const job = store.getState().bulk!.job;
    expect(job.lines.map((l) => l.state)).toEqual(lines.map(() => 'done'));
    expect(store.getState().bulk!.paused ?? null).toBeNull();
    const perLine = new Map<string, number>();
    for (const r of books(env.sb).ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
    expect([...perLine.values()]).toEqual(lines.map(() => 1));
  });

  it('down longer than the job waits: the rest is "not sent" (retry-able), nothing failed as refused', async () => {
    const { store, journal, lines, proxy, onExtend } = await setup(150);
    onExtend((n) => {
      if (n === 2) void proxy.down();
    });
    store.setState({
      marked: Marks.of(lines),
    });
    store.getState().openBulk('extend');
    await store.getState().bulkStart();
    const job = store.getState().bulk!.job;
    const notSent = job.lines.filter((l) => l.state === 'failed' && l.notSent);
    expect(notSent.length).toBeGreaterThanOrEqual(3);
    expect(job.lines.filter((l) => l.state === 'failed' && !l.notSent)).toHaveLength(0);
    expect(journal.entries.filter((e) => e.outcome === 'rejected')).toHaveLength(0);
    expect(journal.entries.filter((e) => e.outcome === 'not sent').length).toBe(notSent.length);
  });
});

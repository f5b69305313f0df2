/**
 * Issue 23, items 4 and 6: a bulk job interrupted (Ctrl-C, q, a signal, a dead terminal: the store's
 * `shutdown`) is not a job the user cancelled. Its lines never sent stay `pending` in the intent log,
 * the next start offers them with the right counts and marks them again, a resume sends only them,
 * and the rate and ETA after a resume count only what this run did. During a job the header's balance
 * follows each reply's `newBalance`, and a balance the service could not confirm is marked stale.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client';
import { memoryIntentLog } from '../../src/store/intent-log';
import { memoryJournal } from '../../src/store/journal';
import { storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
const until = (check: () => boolean, timeout = 10_000) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error('not yet');
    },
    { timeout, interval: 5 },
  );

/** A sandbox behind a proxy whose extends are slow (a job that takes a while), two stores' worth. */
async function setup(opts: { slowMs?: number; now?: () => number } = {}) {
  const env = await sandbox({ lines: 30 });
  let extends_ = 0;
  let onExtend = (_n: number) => {};
  const proxy = await faultProxy(env.sb.baseUrl, {
    rules: [{ match: 'PUT /v1/lines/extend', fault: { kind: 'slow', ms: opts.slowMs ?? 40 } }],
    onFault: (route) => {
      if (route === 'PUT /v1/lines/extend') onExtend(++extends_);
    },
  });
  const clients: Array<ReturnType<typeof createClient>> = [];
  cleanups.push(async () => {
    for (const c of clients) await c.close();
    await proxy.close();
  });
  const intents = memoryIntentLog();
  const journal = memoryJournal();
  /** A process of linedesk: its own client and store, the same intent log and journal (the disk). */
  const start = async () => {
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    clients.push(client);
    const { store } = await storeOnSandbox(
      {},
      {
        client,
        journal,
        intents,
        bulkConcurrency: 1,
        sleep: () => new Promise<void>((r) => setTimeout(r, 2)),
        ...(opts.now ? { now: opts.now } : {}),
      },
      env,
    );
    await store.getState().loadCatalog();
    return store;
  };
  const lines = (await env.client.listLines({ limit: 30, type: 'premium' })).lines.slice(0, 8);
  const ledgerPerLine = () => {
    const per = new Map<string, number>();
    for (const r of books(env.sb).ledger) per.set(r.line_id, (per.get(r.line_id) ?? 0) + 1);
    return per;
  };
  return {
    env,
    proxy,
    intents,
    journal,
    start,
    lines,
    ledgerPerLine,
    onExtend: (f: (n: number) => void) => (onExtend = f),
  };
}

type Store = Awaited<ReturnType<Awaited<ReturnType<typeof setup>>['start']>>;
const markAndStart = (store: Store, lines: Awaited<ReturnType<typeof setup>>['lines']) => {
  store.setState({
    marked: new Map(lines.map((l) => [l.id, { id: l.id, username: l.username, line: l }])),
  });
  store.getState().openBulk('extend');
  return store.getState().bulkStart();
};

describe('an interrupted bulk job', () => {
  it('leaves its unsent lines pending; the next start offers them, marks them, and resumes only them', async () => {
    const { intents, start, lines, ledgerPerLine, onExtend } = await setup();
    const first = await start();
    let stopping: Promise<void> | null = null;
    onExtend((n) => {
      if (n === 3) stopping = first.getState().shutdown(5_000); // Ctrl-C, q, SIGHUP: the same path
    });
    await markAndStart(first, lines);
    await stopping;

    // On disk: what was sent has its outcome, the rest is never sent — not "cancelled by the user".
    const [job] = intents.open();
    expect(job).toBeDefined();
    const states = job!.lines.map((l) => l.state);
    expect(states.filter((s) => s === 'cancelled')).toEqual([]);
    const sent = [...ledgerPerLine().keys()];
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(job!.lines.filter((l) => l.state === 'done').map((l) => l.id)).toEqual(sent);
    const unsent = job!.lines.filter((l) => l.state === 'pending').map((l) => l.id);
    expect(unsent.length).toBe(lines.length - sent.length);

    // The next start offers the job with its counts, and the never-sent lines are marked again.
    const second = await start();
    await second.getState().recoverIntents();
    const r = second.getState().recovery!;
    expect(r.checking).toBe(false);
    expect(r.jobs).toHaveLength(1);
    expect(r.jobs[0]!.unsent).toBe(unsent.length);
    expect(second.getState().modal?.kind).toBe('resume');
    expect([...second.getState().marked.keys()].sort()).toEqual([...unsent].sort());

    // The resume sends only those: every line charged exactly once; the marks go as lines are done.
    await second.getState().resumeJob();
    const b = second.getState().bulk!;
    expect(b.job.lines.map((l) => l.state)).toEqual(lines.map(() => 'done'));
    expect([...ledgerPerLine().values()]).toEqual(lines.map(() => 1));
    expect(ledgerPerLine().size).toBe(lines.length);
    expect(second.getState().marked.size).toBe(0);
    expect(intents.open()).toEqual([]);
  });

  it('a job the user cancels still ends its queued lines "cancelled", never offered again', async () => {
    const { intents, start, lines, onExtend } = await setup();
    const store = await start();
    onExtend((n) => {
      if (n === 2) store.getState().bulkCancel();
    });
    await markAndStart(store, lines);
    const job = store.getState().bulk!.job;
    expect(job.lines.some((l) => l.state === 'cancelled')).toBe(true);
    expect(job.lines.some((l) => l.state === 'pending')).toBe(false);
    expect(intents.open()).toEqual([]);
  });
});

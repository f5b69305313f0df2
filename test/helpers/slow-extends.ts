/**
 * A sandbox of 30 lines behind a fault proxy whose extends are slow (a bulk job that takes a while),
 * and the makings of several starts of linedesk on it: each its own client and store, all sharing
 * one intent log and one journal (the disk). `onExtend` hears each extend the proxy passes (1, 2, …),
 * so a test can stop or check a job part way.
 */
import { createClient } from '../../src/api/client';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import type { StoreDeps } from '../../src/store/deps';
import { storeOnSandbox } from './app';
import { faultProxy } from './fault-proxy';
import { chargesPerLine, DEMO_KEY, sandbox } from './sandbox';
import { cleanups } from './wait';

export async function slowExtends(opts: { now?: () => number } = {}) {
  const env = await sandbox({ lines: 30 });
  let extends_ = 0;
  let onExtend = (_n: number) => {};
  const proxy = await faultProxy(env.sb.baseUrl, {
    rules: [{ match: 'PUT /v1/lines/extend', fault: { kind: 'slow', ms: 40 } }],
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
  /** A start's deps: its own client (through the proxy), the shared intent log and journal. */
  const deps = (): Partial<StoreDeps> => {
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    clients.push(client);
    return {
      client,
      journal,
      intents,
      bulkConcurrency: 1,
      sleep: () => new Promise<void>((r) => setTimeout(r, 2)),
      ...(opts.now ? { now: opts.now } : {}),
    };
  };
  /** A store on the same sandbox (a start of linedesk), its catalogue loaded. */
  const start = async () => {
    const { store } = await storeOnSandbox({}, deps(), env);
    await store.getState().loadCatalog();
    return store;
  };
  /** Eight premium lines (every one can be extended). */
  const lines = (await env.client.listLines({ limit: 30, type: 'premium' })).lines.slice(0, 8);
  /** How many charges each line has in the sandbox's ledger. */
  const ledgerPerLine = () => chargesPerLine(env.sb);
  return {
    env,
    proxy,
    intents,
    deps,
    start,
    lines,
    ledgerPerLine,
    onExtend: (f: (n: number) => void) => {
      onExtend = f;
    },
  };
}

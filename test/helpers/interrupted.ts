/**
 * A bulk extend of 8 lines interrupted (the app stopped) after some of its lines were sent and one
 * was not, because it changed since it was marked: the intent log holds it for the next start, with
 * lines never sent and the changed one left marked to review. Runs through a fault proxy, so a test
 * can play the next start's network (`proxy.set`).
 */
import { expect } from 'vitest';
import { createClient } from '../../src/api/client';
import { Marks } from '../../src/domain/marks';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import type { StoreDeps } from '../../src/store/deps';
import { storeOnSandbox } from './app';
import { faultProxy } from './fault-proxy';
import { DEMO_KEY, sandbox } from './sandbox';
import { cleanups } from './wait';

export async function interruptedJob() {
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
  /** A session's deps: its own client (through the proxy), the shared intent log and journal. */
  const deps = (): Partial<StoreDeps> => {
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    clients.push(client);
    return {
      client,
      journal,
      intents,
      bulkConcurrency: 1,
      sleep: () => new Promise<void>((r) => setTimeout(r, 2)),
    };
  };
  /** A store session on the same sandbox (a start of linedesk). */
  const start = async () => {
    const { store } = await storeOnSandbox({}, deps(), env);
    await store.getState().loadCatalog();
    return store;
  };
  const lines = (await env.client.listLines({ limit: 30, type: 'premium' })).lines.slice(0, 8);
  const changed = lines[5]!;

  const first = await start();
  first.setState({ marked: Marks.of(lines) });
  first.getState().openBulk('extend');
  // After it was marked, another client changes one line's connections (its cost changes).
  env.sb.repo.updateLine(changed.id, {
    connections: changed.connections < 6 ? changed.connections + 1 : 1,
  });
  let stopping: Promise<void> | null = null;
  onExtend = (n) => {
    if (n === 2) stopping = first.getState().shutdown(5_000); // Ctrl-C, q, SIGHUP: the same path
  };
  await first.getState().bulkStart();
  await stopping;
  const [job] = intents.open();
  expect(job!.lines.find((l) => l.id === changed.id)!.state).toBe('skipped');
  const unsent = job!.lines.filter((l) => l.state === 'pending').map((l) => l.id);
  expect(unsent.length).toBeGreaterThan(0);

  return { env, proxy, intents, deps, start, changed, unsent };
}

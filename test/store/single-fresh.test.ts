/**
 * The screens pass when the line of a single change was read (its page, or the detail screen's line):
 * read within a minute it is not read again before the change is sent (no request more); older, it is
 * read again, and a line whose plan changed meanwhile is not sent: the dialog says so, nothing is
 * charged, and the row shows the line as it is now.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { command } from '../../src/commands/keymap';
import { FRESH_FOR_MS } from '../../src/services/changes/fresh-lines';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { type Dialect, faultProxy } from '../helpers/fault-proxy';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

const fx = { copy: async () => ({ ok: false as const, why: '' }) };

async function setup(dialect: Dialect = {}) {
  const env = await sandbox({ lines: 40 });
  /** List requests that search (the change service reading a line again: a page load never searches). */
  const searches: string[] = [];
  const proxy = await faultProxy(env.sb.baseUrl, {
    dialect,
    onList: (_n, q) => {
      if (q.get('search')) searches.push(q.get('search')!);
    },
  });
  const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(async () => {
    await client.close();
    await proxy.close();
  });
  let offset = 0;
  const { store } = await storeOnSandbox(
    {},
    {
      client,
      intents: memoryIntentLog(),
      journal: memoryJournal(),
      sleep: async () => {},
      now: () => Date.now() + offset,
    },
    env,
  );
  await store.getState().start();
  await until(
    () => store.getState().packages.status === 'ready' && store.getState().lines.status === 'ready',
  );
  // A premium line the page shows under the cursor.
  const page = loaded(store.getState().lines)!;
  const at = page.lines.findIndex((l) => !l.is_trial && l.enabled && l.connections < 5);
  store.setState({ cursor: at });
  const extend = async () => {
    command('line.extend').run(store.getState(), fx);
    await until(() => store.getState().action?.quote.status === 'ready');
    await store.getState().confirmAction();
    return store.getState().action!;
  };
  return { env, store, line: page.lines[at]!, searches, extend, later: (ms: number) => (offset += ms) };
}

describe('a single change from the screens: the line’s read time goes with it', () => {
  it('a line the page read just now is not read again: the extend is sent with no request more', async () => {
    const { store, searches, extend } = await setup();
    const a = await extend();
    expect(a.lineReadAt).not.toBeNull();
    expect(a.phase).toBe('done');
    expect(searches).toEqual([]);
    store.getState().closeAction();
  });

  it('the detail screen keeps its line’s read time when the page moves on', async () => {
    const { store, line, searches, extend } = await setup();
    command('lines.open').run(store.getState(), fx);
    // The list pages on (the detail's line is no longer in the page): its own read time counts.
    await store.getState().loadLines({ offset: 20 });
    expect(loaded(store.getState().lines)!.lines.some((l) => l.id === line.id)).toBe(false);
    const a = await extend();
    expect(a.line?.id).toBe(line.id);
    expect(a.phase).toBe('done');
    expect(searches).toEqual([]);
  });

  it('a line read over a minute ago whose connections changed since: not sent, nothing charged, the row shows it now', async () => {
    const { env, store, line, searches, extend, later } = await setup();
    // Another client gives the line a connection more, while the page stays on screen a while.
    await env.client.upgradeLine({ id: line.id, new_connections: line.connections + 1 });
    later(FRESH_FOR_MS + 1_000);
    const charged = books(env.sb).ledger.length;
    const a = await extend();
    expect(searches).toEqual([line.id]);
    expect(a.phase).toBe('failed');
    expect(a.message).toBe(
      `Not sent: changed since it was shown (its connections went from ${line.connections} to ${line.connections + 1}); nothing charged: review it and try again`,
    );
    expect(books(env.sb).ledger.length).toBe(charged);
    const row = loaded(store.getState().lines)!.lines.find((l) => l.id === line.id)!;
    expect(row.connections).toBe(line.connections + 1);
    // The fresh row was read just now: a change of it again is not read again.
    expect(store.getState().linesReadAt.get(line.id)).toBeGreaterThanOrEqual(Date.now() + FRESH_FOR_MS);
  });

  it('a line read again older than shown (a search that lags) is not sent, and the row keeps the line as shown: never the older line stamped fresh', async () => {
    const { env, store, line, searches, extend, later } = await setup({ searchLag: 1 });
    // Another client extends the line; the row shows it as the list has it now (read a while ago),
    // while the server's search still shows it as it was before (its index lags).
    await env.client.extendLine({ id: line.id, duration: 1 });
    const shown = (await env.client.listLines({ limit: 100 })).lines.find((l) => l.id === line.id)!;
    store.getState().replaceLine(shown);
    later(FRESH_FOR_MS + 1_000);
    const first = await extend();
    expect(searches).toEqual([line.id]);
    expect(first.phase).toBe('failed');
    expect(first.message).toMatch(/its expiry was earlier than when it was marked/);
    // The row is not replaced by the older line, nor given a read time it does not have.
    const row = loaded(store.getState().lines)!.lines.find((l) => l.id === line.id)!;
    expect(row.exp_date?.ms).toBe(shown.exp_date?.ms);
    expect(store.getState().linesReadAt.get(line.id)).toBeLessThan(Date.now() + FRESH_FOR_MS);
    store.getState().closeAction();
    // Tried again at once (as the message asks): read again, it starts from the line as it is now.
    const again = await extend();
    expect(again.phase).toBe('done');
    expect(again.job!.lines[0]!.before.expMs).toBe(shown.exp_date?.ms);
  });
});

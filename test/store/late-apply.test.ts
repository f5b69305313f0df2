/**
 * Issue 22, item 1: a change the service applies after linedesk gave up. The service holds the request
 * past the client's deadline and applies it later; a proxy answers 504 (HTML) at once while its
 * upstream applies it later; the service applies it and answers 303. A check that sees no change
 * proves only "not yet": the line stays unknown and held for the hold window, is checked again in the
 * background, and is found applied once the change lands — never "not applied", never charged twice.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { unsettledReason } from '../../src/store/selectors';
import { loaded } from '../../src/store/types';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { type Fault, faultProxy } from '../helpers/fault-proxy';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

async function setup(fault: Fault, route: string) {
  const env = await sandbox({ lines: 30 });
  const proxy = await faultProxy(env.sb.baseUrl, { rules: [{ match: route, nth: 1, fault }] });
  // The client's deadline is short so "held past the deadline" takes a fraction of a second.
  const client = createClient({
    baseUrl: proxy.baseUrl,
    apiKey: DEMO_KEY,
    deadlineMs: 300,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
  cleanups.push(async () => {
    await proxy.landed();
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
      sleep: () => new Promise<void>((r) => setTimeout(r, 2)),
      watch: true,
      watchFirstMs: 100,
    },
    env,
  );
  await store.getState().loadCatalog();
  return { env, proxy, store, journal };
}

const answers = [
  ['held past the client deadline, applied later', { kind: 'applyLate', ms: 700, answer: 'hold' }],
  ['a proxy 504 page at once, applied upstream later', { kind: 'applyLate', ms: 700, answer: 'gateway' }],
  ['applied, answered 303', { kind: 'applyLate', ms: 0, answer: 'seeOther' }],
] as const satisfies ReadonlyArray<readonly [string, Fault]>;

describe('a change applied after linedesk gave up', () => {
  for (const [name, fault] of answers) {
    it(`extend, ${name}: unknown and held, then found applied; charged once`, async () => {
      const { env, proxy, store, journal } = await setup(fault, 'PUT /v1/lines/extend');
      const line = (await env.client.listLines({ limit: 30 })).lines.find((l) => !l.is_trial)!;
      await openQuoted(store, { op: 'extend', line });
      proxy.hold(); // it lands only once the test has seen what was said before
      await store.getState().confirmAction();
      const said = store.getState().action!;
      // The request met the fault: its answer proved nothing.
      expect(journal.entries[0]?.outcome).toBe('unknown');
      if (fault.answer !== 'seeOther') expect(said.phase).toBe('unknown');
      // Never "not applied" and never "refused": the service may still apply it.
      expect(said.phase === 'failed' ? said.message : 'not failed').toBe('not failed');
      if (said.phase === 'unknown') {
        expect(said.message).toMatch(/no change seen yet|Outcome unknown/);
        // Held: no new change of the line until it is settled.
        expect(unsettledReason(store.getState(), line.id)).toBeTruthy();
      }
      await proxy.landed();
      // The background checks find it once it lands.
      await until(() => store.getState().action?.phase === 'done');
      expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(1);
      expect(journal.entries.map((e) => e.outcome)).not.toContain('not applied');
      expect(journal.entries.map((e) => e.outcome)).not.toContain('rejected');
      expect(journal.entries.at(-1)?.outcome).toBe('applied');
      expect(store.getState().unsettled.has(line.id)).toBe(false);
    });
  }

  it('create, a proxy 504 page while the upstream creates it later: never a second line', async () => {
    const { env, proxy, store, journal } = await setup(
      { kind: 'applyLate', ms: 700, answer: 'gateway' },
      'POST /v1/lines',
    );
    const premium = loaded(store.getState().packages)!.find((p) => !p.is_trial)!;
    const body = {
      duration: premium.duration as 1,
      username: 'latecreate0001',
      password: 'late-password-0001',
    };
    store.getState().openAction({ op: 'create', body, pkg: premium as never });
    await until(() => store.getState().action?.quote.status === 'ready');
    proxy.hold();
    await store.getState().confirmAction();
    expect(store.getState().action!.phase).toBe('unknown');
    await proxy.landed();
    await until(() => store.getState().action?.phase === 'done');
    const mine = (await env.client.listLines({ search: 'latecreate0001', limit: 10 })).lines;
    expect(mine.filter((l: LineListItem) => l.username === 'latecreate0001')).toHaveLength(1);
    expect(books(env.sb).ledger).toHaveLength(1);
    expect(journal.entries.at(-1)?.outcome).toBe('applied');
  });
});

/**
 * The header's runway after a change whose outcome is unknown: the line may have changed (or may
 * yet), so its row in the runway may be wrong; the job's end walks the runway again.
 */
import { describe, expect, it } from 'vitest';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { withChangeService } from '../../src/store/changes/changes-slice';
import { loaded } from '../../src/store/types';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

describe('the runway after an unknown outcome', () => {
  it('a job that ends with a line unknown walks the runway again', async () => {
    const env = await sandbox({ lines: 30 });
    // The extend's connection drops before the service answers: it may have left, so "unknown".
    const { client } = await proxiedClient(env.sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
    });
    const { store } = await storeOnSandbox(
      {},
      { client, journal: memoryJournal(), intents: memoryIntentLog(), sleep: async () => {} },
      env,
    );
    const s = () => store.getState();
    await s().loadCatalog();
    await s().loadRunway();
    const walked = loaded(s().runway);
    expect(s().runway.status).toBe('ready');
    const line = (await env.client.listLines({ limit: 10, type: 'premium', status: 'active' })).lines[0]!;
    await openQuoted(store, { op: 'extend', line, readAt: Date.now() });
    await s().confirmAction();
    expect(s().action?.phase).toBe('unknown');
    // Walked again as the job ends (not left as it was before the change).
    expect(s().runway.status).toBe('loading');
    await until(() => s().runway.status === 'ready');
    expect(loaded(s().runway)).not.toBe(walked);
  });
});

describe('the runway while a line stays unknown', () => {
  it('walked once as the job ends, not again at each background check that still sees no change', async () => {
    const env = await sandbox({ lines: 30 });
    // Dropped before it reached the service: never applied, "no change seen yet" for the hold window.
    const { client } = await proxiedClient(env.sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
    });
    const deps = withChangeService({
      client,
      target: { id: 'sandbox:test', kind: 'sandbox', label: 'SANDBOX', baseUrl: env.sb.baseUrl },
      journal: memoryJournal(),
      intents: memoryIntentLog(),
      sleep: async () => {},
      watch: true,
      watchFirstMs: 20,
    });
    let checks = 0;
    deps.changes.subscribe((e) => {
      if (e.type === 'checked') checks++;
    });
    cleanups.push(() => deps.changes.shutdown(0));
    const { store } = await storeOnSandbox({}, deps, env);
    const s = () => store.getState();
    await s().loadCatalog();
    await s().loadRunway();
    // Each walk asked for, whether or not a newer one overtakes it.
    let walks = 0;
    const walk = s().loadRunway;
    store.setState({
      loadRunway: (days) => {
        walks++;
        return walk(days);
      },
    });
    const line = (await env.client.listLines({ limit: 10, type: 'premium', status: 'active' })).lines[0]!;
    await openQuoted(store, { op: 'extend', line, readAt: Date.now() });
    await s().confirmAction();
    expect(s().action?.phase).toBe('unknown');
    // Three checks in the background, each seeing no change yet: the line stays unknown.
    await until(() => checks >= 3 && s().runway.status === 'ready');
    expect(s().action?.phase).toBe('unknown');
    expect(walks).toBe(1);
  });
});

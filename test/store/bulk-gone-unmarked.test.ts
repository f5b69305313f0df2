/**
 * A marked line the bulk job's read before sending no longer finds (deleted elsewhere) leaves the
 * marks: kept, the marks listed it as the live line it had been ("active, in 139 days"). A line
 * that changed stays marked, to be reviewed and run again.
 */
import { describe, expect, it } from 'vitest';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { until } from '../helpers/wait';

describe('a bulk job and the marks', () => {
  it('a line gone since it was marked is unmarked; one changed stays marked; done ones leave', async () => {
    const env = await storeOnSandbox({ lines: 40 }, { intents: memoryIntentLog(), journal: memoryJournal() });
    const { store } = env;
    await store.getState().loadAccount();
    await store.getState().loadCatalog();
    await store.getState().loadLines();
    const premium = loaded(store.getState().lines)!.lines.filter((l) => !l.is_trial && l.connections < 6);
    const [gone, changed, kept] = premium;
    store.getState().markLines([gone!, changed!, kept!]);
    expect(store.getState().marked.size).toBe(3);
    await env.client.deleteLine({ id: gone!.id });
    env.sb.repo.db.prepare('UPDATE lines SET connections = connections + 1 WHERE id = ?').run(changed!.id);
    store.getState().openBulk('extend', undefined, { months: 1 });
    await store.getState().bulkStart();
    await until(() => store.getState().bulk?.phase === 'done');
    const states = new Map(store.getState().bulk!.job.lines.map((l) => [l.id, l.state]));
    expect(states.get(gone!.id)).toBe('skipped');
    expect(states.get(changed!.id)).toBe('skipped');
    expect(states.get(kept!.id)).toBe('done');
    await until(() => !store.getState().marked.has(gone!.id));
    expect(store.getState().marked.has(changed!.id)).toBe(true);
    expect(store.getState().marked.has(kept!.id)).toBe(false);
  });
});

/**
 * A bulk job interrupted after some of its lines were not sent because they changed since they were
 * marked: in the session that ran it they stayed marked ("review and run again"); marks are not
 * saved, so the next start's offer names them (they are in the intent log) and marks them again with
 * the lines never sent: Esc leaves them all marked, to review.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client';
import { Marks } from '../../src/domain/marks';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { offerRows } from '../../src/ui/overlays/ResumeDialog';
import { storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function interrupted() {
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
      },
      env,
    );
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

  return { start, changed, unsent };
}

describe('a restarted job’s lines changed since marked', () => {
  it('are named in the offer and marked again with the never-sent ones', async () => {
    const { start, changed, unsent } = await interrupted();
    // The next start: the offer names the changed line, and it is marked again with the unsent ones.
    const second = await start();
    await second.getState().recoverIntents();
    const r = second.getState().recovery!;
    const rows = offerRows(r.jobs[0]!, false).map((row) => row[0]);
    expect(rows.join('\n')).toMatch(/1 skipped \(changed since marked: marked again\)/);
    expect(rows.some((t) => t.includes(changed.username) && t.includes('changed since it was marked'))).toBe(
      true,
    );
    await vi.waitFor(() =>
      expect([...second.getState().marked.keys()].sort()).toEqual([...unsent, changed.id].sort()),
    );
    // Set aside: the marks stay, to review.
    second.getState().dismissRecovery();
    expect(second.getState().marked.has(changed.id)).toBe(true);
  });

  it('a resume sends the never-sent ones only; the finished job lists the changed one, still marked', async () => {
    const { start, changed, unsent } = await interrupted();
    const second = await start();
    await second.getState().recoverIntents();
    await second.getState().resumeJob();
    const done = second.getState().bulk!.job.lines;
    for (const id of unsent) expect(done.find((l) => l.id === id)!.state).toBe('done');
    expect(done.find((l) => l.id === changed.id)).toMatchObject({
      state: 'skipped',
      detail: expect.stringContaining('changed since it was marked'),
    });
    expect([...second.getState().marked.keys()]).toEqual([changed.id]);
  });
});

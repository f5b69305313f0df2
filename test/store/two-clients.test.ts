/**
 * Issue 22, item 2: two clients on the same lines (the app's bulk job and a script's, or two scripts)
 * while the network drops connections. A job claims only what it can prove is its own: a line the
 * other has an open change of is left to it; a change seen on a line the other may have made is
 * "applied, possibly by another client", never a second claim; "credits spent" counts only proven
 * charges of this job's own requests.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import { NetworkError } from '../../src/api/errors';
import { fileIntentLog } from '../../src/app/intent-file';
import { startTimeOf } from '../../src/app/process-owner';
import type { BulkJob } from '../../src/domain/bulk';
import { Marks } from '../../src/domain/marks';
import { memoryJournal } from '../../src/services/changes/journal';
import type { AppStore } from '../../src/store/app-store';
import type { StoreDeps } from '../../src/store/deps';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { extendJob, jobLine } from '../helpers/jobs';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

const other = () => ({ pid: process.ppid, start: startTimeOf(process.ppid) });
const sleep = () => new Promise<void>((r) => setTimeout(r, 2));
const mark = (store: AppStore, lines: readonly LineListItem[]) => store.setState({ marked: Marks.of(lines) });

/** Another linedesk's extend of one line (written to its own intent log by the test). */
const theirExtend = (line: LineListItem, over: Partial<BulkJob> = {}): BulkJob =>
  extendJob('job-theirs', [jobLine(line, { cost: 3 })], over);

/** Our extend of the line through the single-change dialog, on the intent log in `dir`: its line's outcome. */
async function ourExtend(
  env: Awaited<ReturnType<typeof sandbox>>,
  dir: string,
  client: StoreDeps['client'],
  line: LineListItem,
) {
  const { store } = await storeOnSandbox(
    {},
    { client, intents: fileIntentLog(dir), journal: memoryJournal(), sleep, holdMs: 0 },
    env,
  );
  await store.getState().loadCatalog();
  await openQuoted(store, { op: 'extend', line });
  await store.getState().confirmAction();
  return store.getState().action!.job!.lines[0]!;
}

describe('two clients on the same lines', () => {
  it("two bulk jobs started together: each line sent by one of them; no line claimed by both; spend is each one's own", async () => {
    const env = await sandbox({ lines: 40, credits: 100_000 });
    const proxy = await faultProxy(env.sb.baseUrl, {
      seed: 7,
      rules: [
        { match: 'PUT /v1/lines/extend', p: 0.2, fault: { kind: 'replyLost' } },
        { match: 'PUT /v1/lines/extend', p: 0.15, fault: { kind: 'resetBefore' } },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'ld-two-'));
    const mk = async (owner?: ReturnType<typeof other>) => {
      const client = createClient({
        baseUrl: proxy.baseUrl,
        apiKey: DEMO_KEY,
        retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
      });
      const intents = owner ? fileIntentLog(dir, owner) : fileIntentLog(dir);
      const { store } = await storeOnSandbox(
        {},
        { client, intents, journal: memoryJournal(), sleep, holdMs: 0 },
        env,
      );
      await store.getState().loadCatalog();
      return { store, client };
    };
    const a = await mk();
    const b = await mk(other());
    const pool = (await env.client.listLines({ limit: 40, type: 'premium' })).lines.filter((l) => l.enabled);
    const forA = pool.slice(0, 10);
    const forB = pool.slice(5, 15); // five lines in both
    mark(a.store, forA);
    mark(b.store, forB);
    a.store.getState().openBulk('extend');
    b.store.getState().openBulk('extend');
    await Promise.all([a.store.getState().bulkStart(), b.store.getState().bulkStart()]);
    for (const s of [a.store, b.store])
      if (s.getState().bulk!.job.lines.some((l) => l.state === 'unknown')) await s.getState().bulkRecheck();
    const ja = a.store.getState().bulk!.job;
    const jb = b.store.getState().bulk!.job;

    const ledger = books(env.sb).ledger;
    const perLine = new Map<string, number>();
    for (const r of ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
    for (const [id, n] of perLine) expect(n, `line ${id} charged ${n} times`).toBe(1);
    // A line is claimed applied by at most one job, unless the claim says it may be the other's.
    const claimed = (j: BulkJob) =>
      new Set(j.lines.filter((l) => l.state === 'done' && !l.maybeOther).map((l) => l.id));
    const both = [...claimed(ja)].filter((id) => claimed(jb).has(id));
    expect(both).toEqual([]);
    // The later job left the overlapping lines to the earlier one.
    const skipped = [...ja.lines, ...jb.lines].filter((l) => l.state === 'skipped');
    expect(skipped.length).toBe(5);
    expect(skipped[0]!.detail).toMatch(/open change of this line/);
    // Credits spent: each job's proven charges are its own lines' ledger charges, never more.
    const charged = (j: BulkJob) =>
      ledger
        .filter((r) => j.lines.some((l) => l.id === r.line_id && l.state === 'done' && !l.maybeOther))
        .reduce((n, r) => n + r.amount, 0);
    for (const j of [ja, jb]) {
      const proven = j.lines.reduce((n, l) => n + (l.deducedCredits ?? 0), 0);
      expect(proven).toBeLessThanOrEqual(charged(j));
    }
    await a.client.close();
    await b.client.close();
    await proxy.close();
  });

  it('a change another linedesk made shows on the line: "applied, possibly by another client", charge unknown', async () => {
    const env = await sandbox({ lines: 20 });
    const dir = mkdtempSync(join(tmpdir(), 'ld-other-'));
    const line = (await env.client.listLines({ limit: 20, type: 'premium' })).lines[0]!;
    // The other linedesk's extend of the same line, still open in its log.
    const theirs = fileIntentLog(dir, other());
    const job = theirExtend(line, { balanceBefore: null });
    // Ours is dropped before it reaches the service (the connection reset after sending); theirs
    // lands meanwhile.
    const client = {
      ...env.client,
      extendLine: async (b: Parameters<typeof env.client.extendLine>[0]) => {
        theirs.begin(job);
        theirs.line(job.id, { ...job.lines[0]!, state: 'sending', sentAt: Date.now() });
        await env.client.extendLine(b);
        throw new NetworkError('Connection to the service failed (ECONNRESET)', 'unknown', 'ECONNRESET');
      },
    };
    const l = await ourExtend(env, dir, client, line);
    expect(l.state).toBe('done');
    expect(l.maybeOther).toBeTruthy();
    expect(l.detail).toMatch(/possibly by another client/);
    expect(l.deducedCredits).toBeUndefined();
    expect(books(env.sb).ledger).toHaveLength(1);
  });

  it('a line another linedesk changed and settled after ours was read: a change seen there is never claimed as ours', async () => {
    const env = await sandbox({ lines: 20 });
    const dir = mkdtempSync(join(tmpdir(), 'ld-settled-'));
    // Ours was read (marked) before the other linedesk's change: its "before" is that of the line then.
    const line = (await env.client.listLines({ limit: 20, type: 'premium' })).lines[0]!;
    const theirs = fileIntentLog(dir, other());
    const job = theirExtend(line);
    // Theirs is sent, applied and settled (its job ended) just before ours leaves; ours is dropped
    // before it reaches the service.
    const client = {
      ...env.client,
      extendLine: async (b: Parameters<typeof env.client.extendLine>[0]) => {
        theirs.begin(job);
        theirs.line(job.id, { ...job.lines[0]!, state: 'sending', sentAt: Date.now() });
        const r = await env.client.extendLine(b);
        theirs.line(job.id, { ...job.lines[0]!, state: 'done', deducedCredits: r.deducedCredits });
        theirs.end(job.id);
        throw new NetworkError('Connection to the service failed (ECONNRESET)', 'unknown', 'ECONNRESET');
      },
    };
    const l = await ourExtend(env, dir, client, line);
    // One charge, theirs: ours may say "possibly by another client", never "applied" with its charge.
    expect(books(env.sb).ledger).toHaveLength(1);
    if (l.state === 'done') {
      expect(l.maybeOther).toMatch(/another linedesk job's extend \(job job-thei\) changed this line/);
      expect(l.detail).toMatch(/possibly by another client/);
      expect(l.deducedCredits).toBeUndefined();
    }
  });
});

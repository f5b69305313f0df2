/**
 * The money promise, item by item (issue #12), against the sandbox over HTTP: each case was first
 * seen charging twice, losing a charge, or calling an applied change "not applied".
 */
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client';
import { Marks } from '../../src/domain/marks';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { collapse, journalTotals, memoryJournal } from '../../src/services/changes/journal';
import { loaded } from '../../src/store/types';
import { selectDialog } from '../../src/store/view-stack';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { books, DEMO_KEY } from '../helpers/sandbox';

const until = (check: () => boolean, timeout = 10_000) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error('not yet');
    },
    { timeout, interval: 10 },
  );
const premium = async (env: Awaited<ReturnType<typeof storeOnSandbox>>) =>
  (await env.client.listLines({ limit: 100, type: 'premium' })).lines;

describe('a single change whose outcome is unknown (item 5)', () => {
  it('is kept in the intent log on quit and checked with the server at the next start', async () => {
    const intents = memoryIntentLog();
    const journal = memoryJournal();
    const sleep = () => new Promise<void>((r) => setTimeout(r, 5));
    const first = await storeOnSandbox({}, { intents, journal, sleep });
    // Every answer slower than the client's deadline: the extend is applied, its reply and every
    // check time out.
    const slow = createClient({
      baseUrl: first.sb.baseUrl,
      apiKey: DEMO_KEY,
      deadlineMs: 150,
      retry: { maxAttempts: 1 },
    });
    const s1 = await storeOnSandbox({}, { intents, journal, sleep, client: slow }, first);
    await s1.store.getState().loadCatalog();
    const line = (await premium(first))[0]!;
    // The line read just now (as a page the screen loaded): not read again before sending.
    await openQuoted(s1.store, { op: 'extend', line, readAt: Date.now() });
    first.sb.faults.set('latency=400');
    await s1.store.getState().confirmAction();
    expect(s1.store.getState().action?.phase).toBe('unknown');
    expect(s1.store.getState().action?.message).toMatch(/intent log/);
    s1.store.getState().closeAction(); // quit: allowed, and nothing forgotten
    await slow.close();
    first.sb.faults.set('');
    await until(() => books(first.sb).ledger.length === 1); // the server did apply it

    const s2 = await storeOnSandbox({}, { intents, journal }, first);
    await s2.store.getState().start();
    const r = s2.store.getState().recovery!;
    expect(r.checking).toBe(false);
    const checked = r.jobs[0]!.job.lines[0]!;
    expect(checked.state).toBe('done');
    // The balance before could not be read either (it timed out too): "charged, amount unknown",
    // never silently 0.
    expect(checked.charge).toBe('unknown');
    expect(checked.deducedCredits).toBeUndefined();
    expect(intents.open()).toEqual([]);
    // One operation in the journal, with its final outcome.
    const ops = collapse(journal.entries);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ outcome: 'applied', deducedCredits: null, charge: 'unknown' });
  });
});

describe('honest accounting (item 11)', () => {
  it('replies lost on a third of a bulk extend: journal totals equal the ledger, one entry per line', async () => {
    const journal = memoryJournal();
    const env = await storeOnSandbox({ credits: 100_000 }, { journal, intents: memoryIntentLog() });
    await env.store.getState().loadCatalog();
    const lines = await premium(env);
    for (const l of lines.slice(0, 20))
      env.store.setState({
        marked: env.store.getState().marked.with([l]),
      });
    env.store.getState().openBulk('extend');
    await until(() => env.store.getState().bulk?.quoting === false);
    env.sb.faults.set('resetAfter=0.33,seed=11');
    await env.store.getState().bulkStart();
    env.sb.faults.set('');
    const job = env.store.getState().bulk!.job;
    expect(job.lines.every((l) => l.state === 'done')).toBe(true);
    const ledger = books(env.sb).ledger;
    expect(ledger).toHaveLength(20);
    const checked = job.lines.filter((l) => l.charge !== 'reply');
    expect(checked.length).toBeGreaterThan(0); // the faults did hit
    const ops = collapse(journal.entries);
    expect(ops).toHaveLength(20);
    const total = journalTotals(journal.entries).reduce((s, t) => s + t.credits, 0);
    expect(total).toBe(books(env.sb).spent);
    expect(env.store.getState().bulk!.progress.credits).toBe(books(env.sb).spent);
  });
});

describe('the journal never takes the app down (item 4)', () => {
  it('a failed write after a confirmed charge is shown and retried; the charge is kept', async () => {
    const inner = memoryJournal();
    let failing = true;
    const journal = {
      ...inner,
      append: (e: Parameters<typeof inner.append>[0]) => {
        if (failing) throw new Error('ENOSPC: no space left on device, write');
        inner.append(e);
      },
    };
    const intents = memoryIntentLog();
    const env = await storeOnSandbox({}, { journal, intents });
    await env.store.getState().loadCatalog();
    const line = (await premium(env))[0]!;
    await openQuoted(env.store, { op: 'extend', line });
    await env.store.getState().confirmAction();
    const s = env.store.getState();
    expect(s.action?.phase).toBe('done');
    expect(s.action?.result?.deducedCredits).toBe(books(env.sb).ledger[0]!.amount);
    expect(s.journalWaiting).toBe(1);
    expect(s.flash?.text).toMatch(/Could not write the journal .*retrying/);
    // Its intent stays open until the entry is written: another linedesk reading the balance sees a
    // change open (not drift), and a run that stops now leaves it for the next start to journal.
    expect(intents.open().map((j) => j.op)).toEqual(['extend']);
    failing = false;
    env.store.getState().closeAction();
    // The next write flushes what waited, oldest first.
    env.store.getState().openAction({ op: 'unsuspend', line });
    env.store.getState().setActionTyped('');
    await env.store.getState().confirmAction();
    expect(inner.entries.map((e) => e.operation)).toEqual(['extend', 'unsuspend']);
    expect(env.store.getState().journalWaiting).toBe(0);
    expect(intents.open()).toEqual([]);
  });
});

describe('cancelled work is cancelled, not interrupted (item 12)', () => {
  it('a cancelled bulk job is not offered at the next start', async () => {
    const intents = memoryIntentLog();
    const env = await storeOnSandbox({}, { intents, bulkConcurrency: 1 });
    await env.store.getState().loadCatalog();
    const lines = await premium(env);
    env.store.setState({
      marked: Marks.of(lines),
    });
    env.store.getState().openBulk('extend');
    await until(() => env.store.getState().bulk?.quoting === false);
    env.sb.faults.set('latency=30');
    const running = env.store.getState().bulkStart();
    await until(() => (env.store.getState().bulk?.progress.done ?? 0) >= 2);
    env.store.getState().bulkCancel();
    await running;
    env.sb.faults.set('');
    const job = env.store.getState().bulk!.job;
    expect(job.lines.some((l) => l.state === 'cancelled')).toBe(true);
    expect(intents.open()).toEqual([]);
    const next = await storeOnSandbox({}, { intents }, env);
    await next.store.getState().start();
    expect(next.store.getState().recovery).toBeNull();
    expect(selectDialog(next.store.getState())).toBeNull();
  });
});

describe('confirm rules the contract knows (item 13)', () => {
  it("a trial below the package's minimum balance cannot be confirmed; nothing is created", async () => {
    const env = await storeOnSandbox({ credits: 5 }, { intents: memoryIntentLog() });
    await env.store.getState().start();
    await until(() => env.store.getState().packages.status === 'ready');
    const pkg = loaded(env.store.getState().packages)!.find((p) => p.is_trial && p.credits_cost === 0)!;
    env.store
      .getState()
      .openAction({ op: 'trial', body: { duration: pkg.duration as 12, username: 'trialuser0001' }, pkg });
    await until(() => env.store.getState().action?.quote.status === 'ready');
    await env.store.getState().confirmAction();
    expect(env.store.getState().action?.phase).toBe('review');
    expect(env.store.getState().flash?.text).toMatch(/minimum of 10 credits/);
    expect((await env.client.listLines({ search: 'trialuser0001' })).lines).toHaveLength(0);
  });

  it('a trial line is not extended; only-the-affordable total is what will be charged', async () => {
    const env = await storeOnSandbox({ credits: 6 }, { intents: memoryIntentLog() });
    await env.store.getState().start();
    const trial = (await env.client.listLines({ limit: 100, type: 'trial' })).lines[0]!;
    env.store.getState().openAction({ op: 'extend', line: trial });
    await until(() => env.store.getState().action?.quote.status !== 'loading');
    await env.store.getState().confirmAction();
    expect(env.store.getState().flash?.text).toBe('Trial lines cannot be extended');
    expect(books(env.sb).ledger).toHaveLength(0);
  });
});

describe('the intent log', () => {
  it("keeps no new line's password, and is written before the request leaves", async () => {
    const written: string[] = [];
    const inner = memoryIntentLog();
    let ledgerAtSending = -1;
    const env = await storeOnSandbox({}, {});
    const intents = {
      ...inner,
      begin: (j: Parameters<typeof inner.begin>[0]) => {
        written.push(JSON.stringify(j));
        inner.begin(j);
      },
      line: (id: string, l: Parameters<typeof inner.line>[1]) => {
        written.push(JSON.stringify(l));
        if (l.state === 'sending') ledgerAtSending = books(env.sb).ledger.length;
        inner.line(id, l);
      },
    };
    const s = await storeOnSandbox({}, { intents }, env);
    await s.store.getState().loadCatalog();
    const pkg = loaded(s.store.getState().packages)!.find((p) => !p.is_trial)!;
    const password = 'secret-password-42';
    s.store.getState().openAction({
      op: 'create',
      body: { duration: pkg.duration as 1, username: 'intentuser0001', password },
      pkg,
    });
    await until(() => s.store.getState().action?.quote.status === 'ready');
    await s.store.getState().confirmAction();
    expect(s.store.getState().action?.phase).toBe('done');
    expect(s.store.getState().action?.result?.line?.password).toBe(password);
    expect(ledgerAtSending).toBe(0);
    expect(books(env.sb).ledger).toHaveLength(1);
    expect(written.length).toBeGreaterThan(1);
    expect(written.join('\n')).not.toContain(password);
  });
});

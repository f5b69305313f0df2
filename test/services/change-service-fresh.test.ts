/**
 * A bulk job's lines read again before it spends (services/changes/fresh-lines.ts), against the real
 * sandbox over HTTP through the fault proxy: a change another client made after the lines were
 * marked is never taken for this job's; a line whose plan changed since is not sent (nothing
 * charged); a read that fails, or is cancelled, sends nothing.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem, Package } from '../../src/api/contract';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { startTimeOf } from '../../src/app/process-owner';
import { type BulkJob, toBulkLine } from '../../src/domain/bulk';
import { FRESH_FOR_MS, needsReading } from '../../src/services/changes/fresh-lines';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { type ChangeService, createChangeService } from '../../src/services/changes/service';
import type { Change } from '../../src/services/changes/validate';
import type { Dialect, FaultRule } from '../helpers/fault-proxy';
import { books, DEMO_KEY } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';
import { proxiedSandbox } from './proxied-sandbox';

const TARGET = 'sandbox:test';

/** Another job of the account in its hold window (`another-job-held`), its charge on `line` still to be judged by the balance (1,000 before). */
function beginHeldJob(dir: string, line: LineListItem): void {
  fileIntentLog(dir).begin({
    id: 'another-job-held',
    op: 'extend',
    months: 1,
    connections: 1,
    target: TARGET,
    createdAt: new Date().toISOString(),
    balanceBefore: 1_000,
    lines: [{ ...toBulkLine(line), state: 'unknown', detail: 'no change seen yet', sentAt: Date.now() }],
  });
}

async function setup(rules: readonly FaultRule[] = [], dialect: Dialect = {}) {
  const { env, proxy, client, dir } = await proxiedSandbox({ lines: 40, rules, dialect });
  const journal = memoryJournal();
  const changes = createChangeService({
    client,
    target: { id: TARGET, label: 'SANDBOX' },
    intents: fileIntentLog(dir),
    journal,
    sleep: async () => {},
    bulkConcurrency: 1,
  });
  const notices: string[] = [];
  changes.subscribe((e) => {
    if (e.type === 'notice') notices.push(e.text);
  });
  const all = (await env.client.listLines({ limit: 100 })).lines;
  const premium = all.filter((l) => !l.is_trial && l.enabled && l.connections < 5);
  const packages = (await env.client.packages()).packages;
  return { env, proxy, dir, changes, premium, packages, notices };
}

/**
 * A service (intent log in `dir`) whose user quits as soon as it reads the lines again: each list
 * request shuts the service down first, then goes to the server.
 */
function quittingOnRead(baseUrl: string, dir: string, fs?: Partial<IntentFs>): ChangeService {
  const real = createClient({ baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(() => real.close());
  const changes: ChangeService = createChangeService({
    client: {
      ...real,
      listLines: async (q) => {
        await changes.shutdown(0);
        return real.listLines(q);
      },
    },
    target: { id: TARGET, label: 'SANDBOX' },
    intents: fileIntentLog(dir, undefined, fs ? { fs } : {}),
    journal: memoryJournal(),
    sleep: async () => {},
  });
  return changes;
}

/** A one-month extend job of the sandbox account, written by hand (as a run left it on disk). */
function extendJob(id: string, balanceBefore: number | null, lines: BulkJob['lines']): BulkJob {
  return {
    id,
    op: 'extend',
    months: 1,
    connections: 1,
    target: TARGET,
    createdAt: new Date().toISOString(),
    balanceBefore,
    lines,
  };
}

/** `job` on disk as a stopped run leaves it: its intent written, no process holding it (resumable). */
function leftOnDisk(dir: string, job: BulkJob): void {
  const log = fileIntentLog(dir);
  log.begin(job);
  log.release(job.id);
}

/** Another job of the account still spending (a request of it in flight): this job's balance window is closed. */
function anotherJobSpending(dir: string, line: ReturnType<typeof toBulkLine>): void {
  fileIntentLog(dir).begin(
    extendJob('another-job-0000', 1, [{ ...line, state: 'sending', sentAt: Date.now() }]),
  );
}

const listed = (proxy: { forwarded: Map<string, number> }) => proxy.forwarded.get('GET /v1/lines/all') ?? 0;

describe('a bulk job reads its lines again before it spends', () => {
  it('a change another client made after the marking, this job’s request lost, window closed: never "applied"', async () => {
    // This job's extend never reaches the service (the connection drops with the request).
    const { env, proxy, dir, changes, premium, packages } = await setup([
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } },
    ]);
    const [line, busy] = premium;
    // Marked now, as the line is...
    const marked = [toBulkLine(line!)];
    // ...then another client (another panel) extends it...
    await env.client.extendLine({ id: line!.id, duration: 1 });
    const after = (await env.client.listLines({ search: line!.id, limit: 100 })).lines.find(
      (l) => l.id === line!.id,
    )!;
    // ...while another job of this account spends: the balance cannot tell whose change is whose.
    anotherJobSpending(dir, toBulkLine(busy!));
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(
      changes.plan('extend', marked, { months: 1, connections: 1 }, packages),
      { bulk: true },
    );
    expect(books(env.sb).ledger.length).toBe(charged);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    // The line shows a change (the other client's), the balance cannot tell: still never this job's.
    expect(final.lines[0]!.state).not.toBe('done');
    // Nor is it extended a second time: its expiry moved since the marking, so the plan shown is gone.
    expect(final.lines[0]!.state).toBe('skipped');
    expect(final.lines[0]!.detail).toMatch(
      /its expiry moved from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: someone may have extended it already/,
    );
    // Its starting state is the line as read just before sending: the other client's change is in it.
    expect(final.lines[0]!.before.expMs).toBe(after.exp_date?.ms);
    // What the intent log keeps (what a later check compares with) is that state too.
    const kept = fileIntentLog(dir)
      .open()
      .find((j) => j.id === final.id);
    if (kept) expect(kept.lines[0]!.before.expMs).toBe(after.exp_date?.ms);
  });

  it('a search that lags behind the list the marks came from: its older line is never taken as the start (never "applied")', async () => {
    // This job's extend never reaches the service; the server's search shows a line as it first
    // found it (its index lags), its list as it is.
    const { env, proxy, dir, changes, premium, packages } = await setup(
      [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
      { searchLag: 1 },
    );
    const [line, busy] = premium;
    const search = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(() => search.close());
    // Someone searched for it (the index keeps it so), then another client extended it...
    await search.listLines({ search: line!.id, limit: 100 });
    await env.client.extendLine({ id: line!.id, duration: 1 });
    // ...and the list the lines were marked from shows it extended.
    const marked = (await env.client.listLines({ limit: 100 })).lines.find((l) => l.id === line!.id)!;
    anotherJobSpending(dir, toBulkLine(busy!));
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(
      changes.plan('extend', [toBulkLine(marked)], { months: 1, connections: 1 }, packages),
      { bulk: true },
    );
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    // The other client's extend is in the line the check sees: never this job's.
    expect(final.lines[0]!.state).not.toBe('done');
    expect(final.lines[0]!.before.expMs ?? 0).toBeGreaterThanOrEqual(marked.exp_date?.ms ?? 0);
  });

  it('a line whose plan changed since the marking (connections; deleted) is not sent, and nothing is charged for it', async () => {
    const { env, proxy, changes, premium, packages, notices } = await setup();
    const [same, grown, gone] = premium;
    const planned = changes.plan(
      'extend',
      [same!, grown!, gone!].map(toBulkLine),
      { months: 1, connections: 1 },
      packages,
    );
    // After the marking: another client gives one line more connections (its price differs) and
    // deletes another.
    await env.client.upgradeLine({ id: grown!.id, new_connections: grown!.connections + 1 });
    await env.client.deleteLine({ id: gone!.id });
    const before = books(env.sb);
    const final = await changes.runChange(planned, { bulk: true });
    expect(final.lines.map((l) => l.state)).toEqual(['done', 'skipped', 'skipped']);
    expect(final.lines[1]!.detail).toBe(
      `not sent: changed since it was marked (its connections went from ${grown!.connections} to ${grown!.connections + 1}); nothing charged: review it and run again`,
    );
    expect(final.lines[2]!.detail).toMatch(/^not sent: not found when read again before sending/);
    expect(final.lines[1]!.cost).toBe(0);
    // One extend sent, one charge: the unchanged line's.
    expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
    const after = books(env.sb);
    expect(after.ledger.length).toBe(before.ledger.length + 1);
    expect(after.ledger.at(-1)!.line_id).toBe(same!.id);
    expect(
      notices.some((n) =>
        /^2 lines changed or no longer found since marked: not sent, nothing charged \(.+\); the 1 changed one stays marked: review and run again$/.test(
          n,
        ),
      ),
    ).toBe(true);
  });

  it('an upgrade whose line another client extended since its quote is not sent: its price is by the days left', async () => {
    const { env, proxy, changes, premium, packages } = await setup();
    const line = premium.find((l) => l.connections < 4 && (l.exp_date?.ms ?? 0) > Date.now())!;
    const planned = await changes.quoteJob(
      changes.plan('upgrade', [toBulkLine(line)], { months: 1, connections: line.connections + 1 }, packages),
    );
    await env.client.extendLine({ id: line.id, duration: 1 });
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(planned, { bulk: true });
    expect(final.lines[0]!.state).toBe('skipped');
    expect(final.lines[0]!.detail).toMatch(/^not sent: changed since it was marked \(its expiry changed/);
    expect(proxy.forwarded.get('PUT /v1/lines/upgrade') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
  });

  it('a read again that fails sends nothing, charges nothing, and says so', async () => {
    const { env, proxy, dir, changes, premium, packages, notices } = await setup([
      { match: 'GET /v1/lines/all', fault: { kind: 'error5xx', status: 503 } },
    ]);
    const planned = changes.plan(
      'extend',
      premium.slice(0, 3).map(toBulkLine),
      { months: 1, connections: 1 },
      packages,
    );
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(planned, { bulk: true });
    expect(final.lines.every((l) => l.state === 'failed' && l.notSent && l.provenNotApplied)).toBe(true);
    expect(final.lines[0]!.detail).toMatch(/^not sent: the line could not be read again before sending/);
    expect(notices.some((n) => n.startsWith('Nothing was sent: the lines could not be read again'))).toBe(
      true,
    );
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    expect(fileIntentLog(dir).open()).toEqual([]);
  });

  it('a resumed job whose read again fails keeps its lines never sent, offered again with the same counts, and says so', async () => {
    const { env, proxy, dir, changes, premium, notices } = await setup([
      { match: 'GET /v1/lines/all', fault: { kind: 'error5xx', status: 503 } },
    ]);
    // Interrupted before it sent anything: on disk, its lines never sent.
    const job = extendJob(
      'resumed-job-0001',
      1_000,
      premium.slice(0, 2).map((l) => ({ ...toBulkLine(l), cost: 1 })),
    );
    leftOnDisk(dir, job);
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(job, { bulk: true });
    // Shown as the log holds them: never sent (not "failed", which a retry would send as a new job
    // beside this one, still offered).
    expect(final.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    expect(
      notices.some((n) =>
        /^Not resumed: the lines could not be read again before sending \(.+\)\. This attempt sent nothing and charged nothing; job resumed- is offered at the next start$/.test(
          n,
        ),
      ),
    ).toBe(true);
    // Released, still open: the next start offers it, its two lines never sent.
    const next = createChangeService({
      client: env.client,
      target: { id: TARGET, label: 'SANDBOX' },
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const offered = await next.recoverIntents();
    expect(offered.map((r) => [r.job.id, r.unsent])).toEqual([[job.id, 2]]);
    expect(offered[0]!.job.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
  });

  it('a resumed job whose read again fails leaves a line that may have reached the service as it was: unknown, never sent again', async () => {
    const { env, proxy, dir, changes, premium } = await setup([
      { match: 'GET /v1/lines/all', fault: { kind: 'error5xx', status: 503 } },
    ]);
    // Its first line's request left (no answer: unknown), then the process stopped.
    const [sent, ...rest] = premium.slice(0, 3).map((l) => ({ ...toBulkLine(l), cost: 1 }));
    const job = extendJob('resumed-job-0004', 1_000, [
      { ...sent!, state: 'unknown', detail: 'no change seen yet', sentAt: Date.now() },
      ...rest,
    ]);
    leftOnDisk(dir, job);
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(job, { bulk: true });
    expect(final.lines.map((l) => l.state)).toEqual(['unknown', 'pending', 'pending']);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    const kept = fileIntentLog(dir)
      .open()
      .find((j) => j.id === job.id);
    expect(kept?.lines.map((l) => [l.state, l.sentAt])).toEqual([
      ['unknown', job.lines[0]!.sentAt],
      ['pending', undefined],
      ['pending', undefined],
    ]);
  });

  it('a resumed job reads again only its lines never sent: one that may have reached the service keeps its state and its before', async () => {
    const { env, proxy, dir, changes, premium, packages } = await setup();
    const [sent, unsent] = premium;
    const planned = changes.plan(
      'extend',
      [sent!, unsent!].map(toBulkLine),
      { months: 1, connections: 1 },
      packages,
    );
    // The earlier run's request for the first line reached the service (applied), then the process
    // stopped before its reply: on disk it is `unknown`, the second line never sent.
    const start = books(env.sb).balance;
    await env.client.extendLine({ id: sent!.id, duration: 1 });
    const job: BulkJob = {
      ...planned,
      balanceBefore: null,
      lines: [{ ...planned.lines[0]!, state: 'unknown', sentAt: Date.now() }, planned.lines[1]!],
    };
    leftOnDisk(dir, job);
    expect(books(env.sb).balance).toBeLessThan(start);
    const final = await changes.runChange(job, { bulk: true });
    // Read again, the first line would show its own change as another's: its `before` is the marks'.
    expect(final.lines[0]!.before).toEqual(planned.lines[0]!.before);
    expect(final.lines[0]!.state).not.toBe('skipped');
    // Only the never-sent line is sent, once.
    expect(final.lines[1]!.state).toBe('done');
    expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
  });

  it('a resumed job none of whose lines was ever sent starts from the balance now, not the one its first run read', async () => {
    // The resumed job's extend reaches the service and is applied; its reply is lost.
    const { env, proxy, dir, changes, premium, packages } = await setup([
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } },
    ]);
    const planned = changes.plan(
      'extend',
      [toBulkLine(premium[0]!)],
      { months: 1, connections: 1 },
      packages,
    );
    // Its first run read the balance and stopped before sending; 500 credits were spent elsewhere
    // since (another panel): nothing of that fall is this job's.
    const credits = (await env.client.me()).credits;
    const job: BulkJob = { ...planned, balanceBefore: credits + 500 };
    leftOnDisk(dir, job);
    const final = await changes.runChange(job, { bulk: true });
    expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
    // Judged by the balance as it was just before the request: applied, its charge known.
    expect(final.lines[0]!.state).toBe('done');
    expect(final.lines[0]!.deducedCredits).toBe(credits - (await env.client.me()).credits);
  });

  it('a spend by another client during the read again is never taken for this job’s charge', async () => {
    // This job's extend is applied, its reply lost: the balance judges it.
    const { env, proxy, dir, changes, premium, packages } = await setup();
    const [line, theirs] = premium;
    const planned = changes.plan('extend', [toBulkLine(line!)], { months: 1, connections: 1 }, packages);
    let spent = 0;
    let beganWith: number | null | undefined;
    proxy.set({
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } }],
      // While the lines are read again (the job's intent already on disk), another client spends.
      onList: async (nth) => {
        if (nth !== 1) return;
        beganWith = fileIntentLog(dir)
          .open()
          .find((j) => j.id === planned.id)?.balanceBefore;
        const before = (await env.client.me()).credits;
        await env.client.extendLine({ id: theirs!.id, duration: 1 });
        spent = before - (await env.client.me()).credits;
      },
    });
    const final = await changes.runChange(planned, { bulk: true });
    expect(spent).toBeGreaterThan(0);
    expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
    const own = books(env.sb).ledger.filter((r) => r.line_id === line!.id);
    expect(own).toHaveLength(1);
    // Judged by the balance read after the read again: its own charge, not the other client's too.
    expect(final.lines[0]!.state).toBe('done');
    expect(final.lines[0]!.deducedCredits).toBe(own[0]!.amount);
    // Written before the read (a quit during it leaves the job on disk), its window not open yet.
    expect(beganWith).toBeNull();
  });

  it('another job that starts spending during the read again keeps this job’s window closed', async () => {
    const { proxy, dir, changes, premium, packages } = await setup();
    const [line, busy] = premium;
    const planned = changes.plan('extend', [toBulkLine(line!)], { months: 1, connections: 1 }, packages);
    proxy.set({
      onList: (nth) => {
        if (nth === 1) anotherJobSpending(dir, toBulkLine(busy!));
      },
    });
    const final = await changes.runChange(planned, { bulk: true });
    expect(final.lines[0]!.state).toBe('done');
    // Its fall includes the other job's requests: never opened (judged by the line alone if need be).
    expect(final.balanceBefore).toBeNull();
  });

  it('another job that begins spending as this job’s window opens (after the balance read, before its record): the window closes', async () => {
    const { env, proxy, dir, premium, packages } = await setup();
    const [line, busy] = premium;
    // Another linedesk, of an earlier version, begins its job just before this job's balance record
    // lands: it saw this job's window not open yet, so it did not close it (it closes only open ones).
    const real = fileIntentLog(dir);
    const intents: IntentLog = {
      ...real,
      openBalanceWindow: (id, balance) => {
        anotherJobSpending(dir, toBulkLine(busy!));
        real.openBalanceWindow(id, balance);
      },
    };
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(() => client.close());
    const changes = createChangeService({
      client,
      target: { id: TARGET, label: 'SANDBOX' },
      intents,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const planned = changes.plan('extend', [toBulkLine(line!)], { months: 1, connections: 1 }, packages);
    const final = await changes.runChange(planned, { bulk: true });
    expect(final.lines[0]!.state).toBe('done');
    expect(books(env.sb).ledger.filter((r) => r.line_id === line!.id)).toHaveLength(1);
    // Its fall includes the other job's requests: closed, in the log too (what a check after a
    // crash reads), not only in this process's copy.
    expect(final.balanceBefore).toBeNull();
    expect(
      fileIntentLog(dir)
        .settled?.()
        .find((j) => j.id === planned.id)?.balanceBefore,
    ).toBeNull();
  });

  it('another job whose last request is in flight as the balance is read keeps the window closed, though it ended by the record', async () => {
    const { env, proxy, dir, premium, packages } = await setup([
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } },
    ]);
    const [line, theirs] = premium;
    // Another linedesk's job, its last request in flight...
    anotherJobSpending(dir, toBulkLine(theirs!));
    const real = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(() => real.close());
    let first = true;
    const changes = createChangeService({
      client: {
        ...real,
        me: async () => {
          const account = await real.me();
          if (first) {
            first = false;
            // ...charged just after this job read its balance, then answered, its job ended.
            await env.client.extendLine({ id: theirs!.id, duration: 1 });
            fileIntentLog(dir).end('another-job-0000');
          }
          return account;
        },
      },
      target: { id: TARGET, label: 'SANDBOX' },
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const planned = changes.plan('extend', [toBulkLine(line!)], { months: 1, connections: 1 }, packages);
    const final = await changes.runChange(planned, { bulk: true });
    expect(final.lines[0]!.state).toBe('done');
    // Its fall holds the other job's charge: never opened, so never read as this job's.
    expect(final.balanceBefore).toBeNull();
    expect(
      fileIntentLog(dir)
        .settled?.()
        .find((j) => j.id === planned.id)?.balanceBefore,
    ).toBeNull();
  });

  it('a job that starts spending closes the window another linedesk is about to open: its balance record leaves it closed', async () => {
    const { dir, changes, premium, packages } = await setup();
    const [line, theirs] = premium;
    // Another linedesk (a live process) has begun its job and reads its lines again: window not open.
    const other = fileIntentLog(dir, { pid: process.ppid, start: startTimeOf(process.ppid) });
    other.begin(extendJob('their-job-00000', null, [toBulkLine(theirs!)]));
    const planned = changes.plan('extend', [toBulkLine(line!)], { months: 1, connections: 1 }, packages);
    const final = await changes.runChange(planned, { bulk: true });
    expect(final.lines[0]!.state).toBe('done');
    // Its balance, read after this job's spending began (or before it, this job's charge to come),
    // would hold this job's charge: its window stays closed.
    other.openBalanceWindow('their-job-00000', 900);
    expect(other.open().find((j) => j.id === 'their-job-00000')?.balanceBefore).toBeNull();
  });

  it('a window that cannot be closed again (the disk refuses the record) sends nothing: the log would show it open', async () => {
    const { env, proxy, dir, premium, packages } = await setup();
    const [line, busy] = premium;
    const real = fileIntentLog(dir);
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(() => client.close());
    const changes = createChangeService({
      client,
      target: { id: TARGET, label: 'SANDBOX' },
      intents: {
        ...real,
        // Another job begins spending just before this job's balance record lands (as above)...
        openBalanceWindow: (id, balance) => {
          anotherJobSpending(dir, toBulkLine(busy!));
          real.openBalanceWindow(id, balance);
        },
        // ...and the record closing this job's window again is refused (the other job's is taken).
        closeBalanceWindow: (id) => {
          if (id !== 'another-job-0000') throw new Error('ENOSPC: no space left on device, write');
          real.closeBalanceWindow(id);
        },
      },
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const planned = changes.plan('extend', [toBulkLine(line!)], { months: 1, connections: 1 }, packages);
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(planned, { bulk: true });
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    expect(final.lines[0]).toMatchObject({ state: 'failed', provenNotApplied: true });
    expect(final.lines[0]!.detail).toMatch(
      /^not sent: the intent log could not be written \(.*no space left/,
    );
  });

  it('a quit during a resumed job’s read again leaves its lines never sent, offered again with the same counts', async () => {
    const { env, proxy, dir, premium } = await setup([
      { match: 'GET /v1/lines/all', fault: { kind: 'error5xx', status: 503 } },
    ]);
    // The user quits while the read is in flight: its answer (an error) comes after the shutdown.
    const changes = quittingOnRead(proxy.baseUrl, dir);
    const job = extendJob(
      'resumed-job-0002',
      1_000,
      premium.slice(0, 2).map((l) => ({ ...toBulkLine(l), cost: 1 })),
    );
    leftOnDisk(dir, job);
    const charged = books(env.sb).ledger.length;
    await changes.runChange(job, { bulk: true });
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    // The next start offers it as it was: two lines never sent.
    const kept = fileIntentLog(dir)
      .open()
      .find((j) => j.id === job.id);
    expect(kept?.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
  });

  it('a quit during a resumed job’s read again whose release the disk refuses: said with the file, the job left as it is', async () => {
    const { env, proxy, dir, premium } = await setup();
    // The job's owner file cannot be removed (a disk error): its release fails.
    const fs: Partial<IntentFs> = {
      rmSync: ((path: string, opts?: Parameters<typeof rmSync>[1]) => {
        if (String(path).endsWith('.owner'))
          throw Object.assign(new Error(`EIO: i/o error, unlink '${path}'`), { code: 'EIO', path });
        return rmSync(path, opts);
      }) as IntentFs['rmSync'],
    };
    const changes = quittingOnRead(proxy.baseUrl, dir, fs);
    const notices: string[] = [];
    changes.subscribe((e) => {
      if (e.type === 'notice') notices.push(e.text);
    });
    const job = extendJob(
      'resumed-job-0003',
      1_000,
      premium.slice(0, 2).map((l) => ({ ...toBulkLine(l), cost: 1 })),
    );
    leftOnDisk(dir, job);
    const charged = books(env.sb).ledger.length;
    const final = await changes.runChange(job, { bulk: true });
    expect(final.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
    expect(books(env.sb).ledger.length).toBe(charged);
    expect(notices.some((n) => n.includes(`${job.id}.jsonl.owner`))).toBe(true);
    const kept = fileIntentLog(dir)
      .open()
      .find((j) => j.id === job.id);
    expect(kept?.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
  });

  it('a quit during a new job’s read again: the next start offers the job, every line never sent', async () => {
    const { env, dir, premium, packages } = await setup();
    const changes = quittingOnRead(env.sb.baseUrl, dir);
    const planned = changes.plan(
      'extend',
      premium.slice(0, 3).map(toBulkLine),
      { months: 1, connections: 1 },
      packages,
    );
    await changes.runChange(planned, { bulk: true });
    const kept = fileIntentLog(dir)
      .open()
      .find((j) => j.id === planned.id);
    expect(kept?.lines.map((l) => l.state)).toEqual(['pending', 'pending', 'pending']);
  });

  it('a cancel during the read again sends nothing', async () => {
    const { env, proxy, changes, premium, packages } = await setup([
      { match: 'GET /v1/lines/all', fault: { kind: 'slow', ms: 50 } },
    ]);
    const planned = changes.plan(
      'extend',
      premium.slice(0, 3).map(toBulkLine),
      { months: 1, connections: 1 },
      packages,
    );
    const charged = books(env.sb).ledger.length;
    const running = changes.runChange(planned, { bulk: true });
    // Cancelled once the read has reached the proxy (slowed there): what it did not reach is
    // cancelled, never "not found".
    await until(() => (proxy.received.get('GET /v1/lines/all') ?? 0) > 0);
    changes.cancel(planned.id);
    const final = await running;
    expect(final.lines.map((l) => l.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
  });

  it('lines read just now (a script’s lookup) are not read again', async () => {
    const { proxy, changes, premium, packages } = await setup();
    const planned = changes.plan(
      'extend',
      [toBulkLine(premium[0]!)],
      { months: 1, connections: 1 },
      packages,
    );
    const listedBefore = listed(proxy);
    const final = await changes.runChange(planned, { bulk: true, linesReadAt: Date.now() });
    expect(final.lines[0]!.state).toBe('done');
    // The check after no unknown outcome reads nothing either: no list request at all.
    expect(listed(proxy)).toBe(listedBefore);
    const at = Date.parse(planned.createdAt);
    expect(needsReading(planned, { readAt: at - FRESH_FOR_MS - 1, nowMs: at })).toBe(true);
    expect(needsReading(planned, { readAt: undefined, nowMs: at })).toBe(true);
    expect(needsReading(planned, { readAt: at - FRESH_FOR_MS, nowMs: at })).toBe(false);
  });
});

describe('a single change reads its line again when the screen read it over a minute ago', () => {
  /** The line as a list page showed it more than a minute before the change is confirmed. */
  const longAgo = () => Date.now() - FRESH_FOR_MS - 5_000;
  const extendOf = (line: LineListItem): Change => ({
    op: 'extend',
    line,
    body: null,
    months: 1,
    connections: line.connections,
  });
  const costOf = (changes: ChangeService, change: Change, packages: readonly Package[]) => {
    const q = changes.quoteLocally(change, packages);
    return q && 'quote' in q ? q.quote.cost : null;
  };

  it('an extend another client made after the line was shown, this request lost, window closed: never "applied"', async () => {
    const { env, proxy, dir, changes, premium, packages } = await setup([
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } },
    ]);
    const [line, busy] = premium;
    // Shown (a list page read long ago), then another client extends it...
    await env.client.extendLine({ id: line!.id, duration: 1 });
    const after = (await env.client.listLines({ search: line!.id, limit: 100 })).lines.find(
      (l) => l.id === line!.id,
    )!;
    // ...while another job of this account spends: the balance cannot tell whose change is whose.
    anotherJobSpending(dir, toBulkLine(busy!));
    const charged = books(env.sb).ledger.length;
    const change = extendOf(line!);
    const sent = await changes.send(change, costOf(changes, change, packages), { linesReadAt: longAgo() });
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    // The line shows a change (the other client's), the balance cannot tell: never this change's.
    expect(sent.outcome).not.toBe('applied');
    expect(sent.line.before.expMs).toBe(after.exp_date?.ms);
  });

  it('a line whose connections changed since it was shown is not sent: nothing charged, the fresh line given back', async () => {
    const { env, proxy, dir, changes, premium, packages, notices } = await setup();
    const line = premium[0]!;
    await env.client.upgradeLine({ id: line.id, new_connections: line.connections + 1 });
    const charged = books(env.sb).ledger.length;
    const change = extendOf(line);
    const sent = await changes.send(change, costOf(changes, change, packages), { linesReadAt: longAgo() });
    expect(sent.outcome).toBe('skipped');
    expect(sent.message).toBe(
      `Not sent: changed since it was shown (its connections went from ${line.connections} to ${line.connections + 1}); nothing charged: review it and try again`,
    );
    // The screens show the line as it is now.
    expect(sent.server?.connections).toBe(line.connections + 1);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    // Nothing to send: the job written before the read is ended (nothing open), said once (the outcome).
    expect(fileIntentLog(dir).open()).toEqual([]);
    expect(notices.some((n) => /since marked: not sent/.test(n))).toBe(false);
    // One search found it by its id: no walk.
    expect(listed(proxy)).toBe(1);
  });

  it('a change not sent for what its line is now leaves another job’s balance window open: it spent nothing', async () => {
    const { env, dir, changes, premium, packages } = await setup();
    const [line, other] = premium;
    // Another job of the account in its hold window, its charge still to be judged by the balance.
    beginHeldJob(dir, other!);
    await env.client.upgradeLine({ id: line!.id, new_connections: line!.connections + 1 });
    const change = extendOf(line!);
    const sent = await changes.send(change, costOf(changes, change, packages), { linesReadAt: longAgo() });
    expect(sent.outcome).toBe('skipped');
    const held = fileIntentLog(dir)
      .open()
      .find((j) => j.id === 'another-job-held')!;
    expect(held.balanceBefore).toBe(1_000);
  });

  it('a change left to another job’s open change of its line leaves that job’s balance window open: it spent nothing', async () => {
    const { dir, changes, premium, packages } = await setup();
    const [line] = premium;
    beginHeldJob(dir, line!);
    const change = extendOf(line!);
    const sent = await changes.send(change, costOf(changes, change, packages), { linesReadAt: longAgo() });
    expect(sent.line.heldBack).toBe(true);
    const held = fileIntentLog(dir)
      .open()
      .find((j) => j.id === 'another-job-held')!;
    expect(held.balanceBefore).toBe(1_000);
  });

  for (const how of ['cancel', 'quit'] as const)
    it(`a ${how} during the balance read before the first request sends nothing and leaves another job’s window open`, async () => {
      const { env, proxy, dir, premium, packages } = await setup();
      const [line, other] = premium;
      beginHeldJob(dir, other!);
      fileIntentLog(dir).release('another-job-held');
      // The user cancels (or quits) as the job reads the balance its window starts from.
      const real = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
      cleanups.push(() => real.close());
      const changes: ChangeService = createChangeService({
        client: {
          ...real,
          me: async () => {
            if (how === 'cancel') changes.cancel(planned.id);
            else await changes.shutdown(0);
            return real.me();
          },
        },
        target: { id: TARGET, label: 'SANDBOX' },
        intents: fileIntentLog(dir),
        journal: memoryJournal(),
        sleep: async () => {},
      });
      const planned = changes.plan('extend', [toBulkLine(line!)], { months: 1, connections: 1 }, packages);
      const charged = books(env.sb).ledger.length;
      const final = await changes.runChange(planned, { bulk: true });
      expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
      expect(books(env.sb).ledger.length).toBe(charged);
      // Cancelled, or left never sent for the next start.
      expect(final.lines[0]!.state).toBe(how === 'cancel' ? 'cancelled' : 'pending');
      const open = fileIntentLog(dir).open();
      if (how === 'quit') expect(open.find((j) => j.id === planned.id)?.lines[0]?.state).toBe('pending');
      // It spent nothing: the other job's balance still judges its charge.
      expect(open.find((j) => j.id === 'another-job-held')!.balanceBefore).toBe(1_000);
    });

  it('a line deleted since it was shown is not sent (read by searches, then a walk)', async () => {
    const { env, proxy, changes, premium, packages } = await setup();
    const line = premium[0]!;
    await env.client.deleteLine({ id: line.id });
    const charged = books(env.sb).ledger.length;
    const change = extendOf(line);
    const sent = await changes.send(change, costOf(changes, change, packages), { linesReadAt: longAgo() });
    expect(sent.outcome).toBe('skipped');
    expect(sent.message).toMatch(/^Not sent: not found when read again before sending .*since it was shown/);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(charged);
    // By id, by username, then one page of the 40 lines.
    expect(listed(proxy)).toBe(3);
  });

  it('a line read just now is not read again: no list request at all', async () => {
    const { proxy, changes, premium, packages } = await setup();
    const change = extendOf(premium[0]!);
    const sent = await changes.send(change, costOf(changes, change, packages), { linesReadAt: Date.now() });
    expect(sent.outcome).toBe('applied');
    expect(listed(proxy)).toBe(0);
  });
});

describe('a check round asks the intent log once', () => {
  it('its open jobs are read once a round, shared by the round’s questions (window closed, applied lately)', async () => {
    const { env, dir, premium } = await setup();
    const file = fileIntentLog(dir);
    let reads = 0;
    const intents: IntentLog = {
      ...file,
      open: () => {
        reads++;
        return file.open();
      },
      // The questions about other jobs read the open jobs with their files' damage (one read too).
      openWithDamage: (expected) => {
        reads++;
        return file.openWithDamage!(expected);
      },
      // The check's own read of the job (the log's version, never the caller's copy) reads it too.
      current: (ids) => {
        reads++;
        return file.current!(ids);
      },
    };
    const client = createClient({ baseUrl: env.sb.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(() => client.close());
    const changes = createChangeService({
      client,
      target: { id: TARGET, label: 'SANDBOX' },
      intents,
      sleep: async () => {},
    });
    // A job whose window another job closed, one line unknown (its request never reached the service).
    const job = extendJob('checked-job-0001', null, [
      { ...toBulkLine(premium[0]!), state: 'unknown', sentAt: Date.now() },
    ]);
    leftOnDisk(dir, job);
    reads = 0;
    const final = await changes.checkChange(job);
    expect(final.lines[0]!.state).toBe('unknown');
    // The check's own read of the job, and one for its one round.
    expect(reads).toBe(2);
  });
});

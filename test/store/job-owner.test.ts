/**
 * Two linedesks on one service (a cron run beside an open terminal, two cron runs): a job the other
 * is still making is never judged from here — its request in flight would look "not applied" — and
 * its lines are not changed again; once its maker is gone, the next start checks it as before.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { fileIntentLog } from '../../src/app/intent-file';
import { startTimeOf } from '../../src/app/process-owner';
import type { BulkJob } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { unsettledReason } from '../../src/store/selectors';
import { storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { extendJob, jobLine } from '../helpers/jobs';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

describe('a job another linedesk is making', () => {
  it('is left to it while it runs (no verdict, its lines held); checked once it is gone', async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-owner-'));
    const lines = (await env.client.listLines({ type: 'premium', limit: 1 })).lines;
    const line = lines[0]!;
    const balance = (await env.client.me()).credits;
    const job = extendJob('job-elsewhere', [jobLine(line)], { balanceBefore: balance });
    // The other linedesk (a live process that is not this one) wrote its intent; its request is out.
    const other = { pid: process.ppid, start: startTimeOf(process.ppid) };
    const theirs = fileIntentLog(dir, other);
    theirs.begin(job);
    theirs.line(job.id, { ...job.lines[0]!, state: 'sending' });

    const journal = memoryJournal();
    const here = await storeOnSandbox({}, { intents: fileIntentLog(dir), journal }, env);
    await here.store.getState().start();
    const s = here.store.getState();
    expect(s.recovery).toBeNull();
    expect(journal.entries).toEqual([]);
    expect(s.unsettled.get(line.id)).toBe(job.id);
    expect(unsettledReason(s, line.id)).toMatch(/^held for another linedesk \(process \d+\)/);
    expect(s.flash?.text).toMatch(/another linedesk \(process \d+\) is making an earlier extend/);
    expect(theirs.open().map((j) => j.lines[0]!.state)).toEqual(['sending']);

    // It ended without settling the line (killed): the next start takes the job over and checks it.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const owner = readdirSync(dir).find((f) => f.endsWith('.owner'))!;
    writeFileSync(join(dir, owner), JSON.stringify({ pid: dead, start: null }));
    const journal2 = memoryJournal();
    // Started after the hold window: a check that sees no change now proves "not applied".
    const later = () => Date.now() + 11 * 60_000;
    const next = await storeOnSandbox(
      {},
      { intents: fileIntentLog(dir), journal: journal2, now: later },
      env,
    );
    await next.store.getState().start();
    await expect.poll(() => journal2.entries.at(-1)?.outcome).toBe('not applied');
    expect(books(env.sb).ledger).toHaveLength(0);
  });
});

describe('the owner file', () => {
  const job = (id: string): BulkJob => extendJob(id, [], { balanceBefore: 100 });

  it('a job whose maker is gone is taken over by exactly one of two linedesks; released, by the next', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-claim-'));
    const gone = { pid: spawnSync(process.execPath, ['-e', '0']).pid!, start: null };
    fileIntentLog(dir, gone).begin(job('j1'));
    // Two live processes (this one and its parent) start at once.
    const mine = fileIntentLog(dir);
    const theirs = fileIntentLog(dir, { pid: process.ppid, start: startTimeOf(process.ppid) });
    expect([mine.claim('j1'), theirs.claim('j1')]).toEqual([true, false]);
    expect(theirs.heldElsewhere('j1')).toMatch(/another linedesk \(process \d+\)/);
    // Nothing in flight from here any more: the other may check it now.
    mine.release('j1');
    expect(theirs.claim('j1')).toBe(true);
    expect(mine.claim('j1')).toBe(false);
    // A job another live process holds is not written by this one (so nothing is sent for it).
    expect(() => mine.begin(job('j1'))).toThrow(/is making this job/);
  });

  it('closing the balance window of a job that just ended leaves no file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-window-'));
    const log = fileIntentLog(dir);
    log.begin(job('j2'));
    log.closeBalanceWindow('j2');
    expect(log.open()[0]!.balanceBefore).toBeNull();
    log.end('j2');
    log.closeBalanceWindow('j2');
    // Only the ended job, kept a while as settled (never read as open again).
    expect(readdirSync(dir)).toEqual(['j2.jsonl.settled']);
    expect(log.open()).toEqual([]);
    expect(log.settled?.().map((j) => j.id)).toEqual(['j2']);
  });

  it('an ended job is kept as settled for a while, then dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-settled-'));
    fileIntentLog(dir).begin(job('j3'));
    fileIntentLog(dir).end('j3');
    expect(
      fileIntentLog(dir)
        .settled?.()
        .map((j) => j.id),
    ).toEqual(['j3']);
    expect(fileIntentLog(dir, undefined, { keepSettledMs: -1 }).settled?.()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a balance window closed by another linedesk', () => {
  it('reaches a job still running here: its charge is not deduced from a balance the other one moved', async () => {
    const env = await sandbox();
    const intents = fileIntentLog(mkdtempSync(join(tmpdir(), 'ld-window3-')));
    const [line] = (await env.client.listLines({ type: 'premium', limit: 1 })).lines;
    const job = extendJob('job-running', [jobLine(line!)]);
    // The extend reaches the server and its reply is lost; meanwhile another process starts a job
    // (closing this one's window in the log) and spends 5 credits.
    const proxy = await faultProxy(env.sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } }],
      onFault: () => {
        intents.closeBalanceWindow(job.id);
        env.sb.repo.db.prepare('UPDATE accounts SET credits = credits - 5 WHERE id = 1').run();
      },
    });
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    try {
      const { store } = await storeOnSandbox({}, { client, intents, sleep: async () => {} }, env);
      const final = await store.getState().runChange(job);
      expect(final.lines[0]).toMatchObject({ state: 'done', charge: 'unknown' });
      expect(final.lines[0]!.deducedCredits).toBeUndefined();
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('reaches the check of a job begun before: no charge deduced from a balance the other one moved', async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-window2-'));
    const intents = fileIntentLog(dir);
    const [line, other] = (await env.client.listLines({ type: 'premium', limit: 2 })).lines;
    const job = extendJob('job-window', [jobLine(line!, { state: 'unknown' })], {
      balanceBefore: (await env.client.me()).credits,
    });
    intents.begin(job);
    // This job's extend reached the server (its reply was lost); then another process spent too,
    // and closed this job's window in the log as it began.
    await env.client.extendLine({ id: line!.id, duration: 1 });
    intents.closeBalanceWindow(job.id);
    await env.client.extendLine({ id: other!.id, duration: 1 });

    const { store } = await storeOnSandbox({}, { intents }, env);
    const checked = await store.getState().checkChange(job);
    // Applied (the line shows it), its amount unknown: the balance's fall holds the other's charge.
    expect(checked.lines[0]).toMatchObject({ state: 'done', charge: 'unknown' });
    expect(checked.lines[0]!.deducedCredits).toBeUndefined();
  });
});

describe('resuming an interrupted job', () => {
  it('sends nothing when another linedesk took the job meanwhile, or settled and ended it', async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-resume-'));
    const [line] = (await env.client.listLines({ type: 'premium', limit: 1 })).lines;
    const job = extendJob('job-resume', [jobLine(line!)], { balanceBefore: (await env.client.me()).credits });
    // Read at start by this process (the resume dialog's copy), then taken by another, live one.
    const gone = { pid: spawnSync(process.execPath, ['-e', '0']).pid!, start: null };
    fileIntentLog(dir, gone).begin(job);
    const theirs = fileIntentLog(dir, { pid: process.ppid, start: startTimeOf(process.ppid) });
    expect(theirs.claim(job.id)).toBe(true);
    const { store } = await storeOnSandbox({}, { intents: fileIntentLog(dir) }, env);
    await store.getState().runChange(job);
    expect(store.getState().flash?.text).toMatch(/Another linedesk resumed or settled this job/);
    // The other one sent and settled it, and ended the job: the stale copy is still not sent.
    theirs.end(job.id);
    await store.getState().runChange(job);
    expect(store.getState().flash?.text).toMatch(/This job ended meanwhile/);
    expect(books(env.sb).ledger).toHaveLength(0);
  });
});

/**
 * The drift watch's race, against the sandbox over HTTP: while a change of this account is open in
 * the intent log (its request in flight, or its outcome unknown), the balance it may or may not have
 * moved is never called drift, and the last balance seen is kept, so the charge is explained once
 * its journal entry is written.
 */

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sameServiceAs } from '../../src/app/account-id';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import type { BulkJob } from '../../src/domain/bulk';
import { memoryBalances, readAccountToJudge, readAccountWatched } from '../../src/services/balance-watch';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { type JournalEntry, memoryJournal } from '../../src/services/changes/journal';
import { sandbox } from '../helpers/sandbox';

/** An applied extend of line l1 journaled under `target` at `time`: it spent `credits`. */
const appliedExtend = (
  opId: string,
  target: string,
  time: number,
  credits: number,
  newBalance: number,
): JournalEntry => ({
  opId,
  time: new Date(time).toISOString(),
  target,
  operation: 'extend',
  lineId: 'l1',
  username: 'user-l1',
  quotedCost: credits,
  estimate: true,
  deducedCredits: credits,
  newBalance,
  outcome: 'applied',
});

describe('the drift watch while a change is open', () => {
  it('an extend in flight is not drift; once journaled it is explained', async () => {
    let clock = Date.parse('2026-11-20T12:00:00Z');
    const now = () => clock;
    const env = await sandbox({ lines: 20 });
    const [line] = (await env.client.listLines({ limit: 5, type: 'premium', status: 'active' })).lines;
    const balances = memoryBalances();
    const journal = memoryJournal();
    const intents = memoryIntentLog();
    const watch = { balances, targetId: 'sandbox:test', journal, intents, now };
    expect((await readAccountWatched(env.client, watch)).drift?.verdict.kind).toBe('first');
    const remembered = balances.seen.get('sandbox:test');

    // The intent is recorded before the request leaves; the server applies it; no reply read yet.
    const job = {
      id: 'job1',
      op: 'extend',
      months: 1,
      connections: 1,
      target: 'sandbox:test',
      createdAt: new Date(clock).toISOString(),
      lines: [],
    } as unknown as BulkJob;
    intents.begin(job);
    clock += 1000;
    const charged = (await env.client.extendLine({ id: line!.id, duration: 1 })).deducedCredits;
    clock += 1000;
    const during = await readAccountWatched(env.client, watch);
    expect(during.drift?.verdict.kind).toBe('unsure');
    expect(balances.seen.get('sandbox:test')).toEqual(remembered);

    // The reply is journaled, the intent closed: the fall is explained.
    const spent = remembered!.balance - during.account.credits;
    expect(spent).toBeGreaterThan(0);
    journal.append({
      opId: 'job1:x',
      time: new Date(clock).toISOString(),
      target: 'sandbox:test',
      operation: 'extend',
      lineId: line!.id,
      username: line!.username,
      quotedCost: spent,
      estimate: true,
      deducedCredits: charged,
      newBalance: during.account.credits,
      outcome: 'applied',
    });
    intents.end('job1');
    clock += 1000;
    expect((await readAccountWatched(env.client, watch)).drift?.verdict).toEqual({
      kind: 'steady',
      explained: spent,
    });
  });
});

describe('the drift watch against another linedesk closing a change during the read', () => {
  it('a change in flight when the balance was read, closed just after, is not drift', async () => {
    let clock = Date.parse('2026-11-20T12:00:00Z');
    let credits = 100;
    const balances = memoryBalances();
    const journal = memoryJournal();
    const intents = memoryIntentLog();
    const job = { id: 'job2', op: 'extend', target: 'acct', lines: [] } as unknown as BulkJob;
    let closeOnNextClock = false;
    let raced = false;
    const now = () => {
      clock += 10;
      if (closeOnNextClock) {
        // The other process: its reply read and journaled, its intent closed, at this very moment.
        closeOnNextClock = false;
        journal.append(appliedExtend('job2:x', 'acct', clock + 1, 5, 95));
        intents.end('job2');
      }
      return clock;
    };
    const watch = { balances, targetId: 'acct', journal, intents, now };
    const client = {
      me: async () => {
        if (credits === 95 && !raced) {
          raced = true;
          // Its request left before this read and was charged before the server read the balance.
          intents.begin(job);
          closeOnNextClock = true;
        }
        return { credits } as never;
      },
    };
    expect((await readAccountWatched(client, watch)).drift?.verdict.kind).toBe('first');
    credits = 95;
    const during = (await readAccountWatched(client, watch)).drift?.verdict;
    expect(during?.kind).not.toBe('drift');
    // And the next read explains the fall by the journal: said by nobody.
    expect((await readAccountWatched(client, watch)).drift?.verdict).toEqual({
      kind: 'steady',
      explained: 5,
    });
  });
});

describe('the drift watch over an intent log that does not read whole', () => {
  it('does not call the fall drift: a job file it cannot read may be a change in flight', async () => {
    const balances = memoryBalances();
    balances.seen.set('acct', { balance: 100, at: Date.parse('2026-11-20T11:00:00Z') });
    const intents = {
      ...memoryIntentLog(),
      damaged: () => [{ path: '/data/intents-x/job.jsonl', problem: 'torn', jobId: null, lines: [] }],
    };
    const watch = {
      balances,
      targetId: 'acct',
      journal: memoryJournal(),
      intents,
      now: () => Date.parse('2026-11-20T12:00:00Z'),
    };
    const client = { me: async () => ({ credits: 95 }) as never };
    const { drift } = await readAccountWatched(client, watch);
    expect(drift?.verdict).toMatchObject({ kind: 'unsure' });
    expect(drift?.verdict.kind === 'unsure' && drift.verdict.why).toContain('/data/intents-x/job.jsonl');
    expect(balances.seen.get('acct')?.balance).toBe(100);
  });
});

describe('the drift watch over the intent log on disk', () => {
  it('reads the log folder once a balance read (the open jobs only), and an ended damaged file is not a change open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-watch-'));
    try {
      let listed = 0;
      const fs: Partial<IntentFs> = {
        readdirSync: ((...a: Parameters<typeof readdirSync>) => {
          listed++;
          return readdirSync(...a);
        }) as IntentFs['readdirSync'],
      };
      // An ended job's file that does not read: named by `damaged()`, not a change in flight.
      writeFileSync(join(dir, 'old.jsonl.settled'), 'null\n');
      const intents = fileIntentLog(dir, undefined, { fs });
      expect(intents.damaged?.()).toEqual([expect.objectContaining({ ended: true })]);
      const balances = memoryBalances();
      balances.seen.set('acct', { balance: 100, at: Date.parse('2026-11-20T11:00:00Z') });
      const watch = {
        balances,
        targetId: 'acct',
        journal: memoryJournal(),
        intents,
        now: () => Date.parse('2026-11-20T12:00:00Z'),
      };
      listed = 0;
      const { drift } = await readAccountWatched({ me: async () => ({ credits: 100 }) as never }, watch);
      expect(drift?.verdict.kind).toBe('steady');
      // Asked before and after the read: one scan each (not the ended jobs' folder scan too).
      expect(listed).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the drift watch with two keys of one account on this machine', () => {
  it("a charge journaled under the other key is not this key's drift", async () => {
    const clock = Date.parse('2026-11-20T12:00:00Z');
    const balances = memoryBalances();
    balances.seen.set('https://panel.example/#aaaa0000aaaa0000', { balance: 100, at: clock - 60_000 });
    const journal = memoryJournal();
    journal.append(appliedExtend('cron:x', 'https://panel.example/#bbbb0000bbbb0000', clock - 30_000, 5, 95));
    const watch = {
      balances,
      targetId: 'https://panel.example/#aaaa0000aaaa0000',
      sameService: sameServiceAs('https://panel.example/#aaaa0000aaaa0000'),
      journal,
      now: () => clock,
    };
    const client = { me: async () => ({ credits: 95 }) as never };
    expect((await readAccountWatched(client, watch)).drift?.verdict.kind).toBe('unsure');
    // Another service's charge explains nothing here.
    const elsewhere = {
      ...watch,
      targetId: 'https://other.example/#aaaa0000aaaa0000',
      sameService: sameServiceAs('https://other.example/#aaaa0000aaaa0000'),
    };
    balances.seen.set('https://other.example/#aaaa0000aaaa0000', { balance: 100, at: clock - 60_000 });
    expect((await readAccountWatched(client, elsewhere)).drift?.verdict.kind).toBe('drift');
  });
});

describe('a judgement made after the read (the screens wait for the journal read ahead)', () => {
  it('a later balance remembered meanwhile (another linedesk, a newer read) is not judged against: no drift', async () => {
    let clock = Date.parse('2026-11-20T12:00:00Z');
    let credits = 100;
    const balances = memoryBalances();
    const journal = memoryJournal();
    const now = () => (clock += 10);
    const watch = { balances, targetId: 'acct', journal, now };
    const client = { me: async () => ({ credits }) as never };
    expect((await readAccountWatched(client, watch)).drift?.verdict.kind).toBe('first');
    // This read, judged later.
    const early = await readAccountToJudge(client, watch);
    // Meanwhile another linedesk spends 5 (journaled) and judges its own later read.
    clock += 1000;
    journal.append(appliedExtend('other:x', 'acct', clock, 5, 95));
    credits = 95;
    clock += 1000;
    expect((await readAccountWatched(client, watch)).drift?.verdict).toEqual({
      kind: 'steady',
      explained: 5,
    });
    const later = balances.seen.get('acct');
    // The early read saw 100: nothing drifted, and the later balance stays the one remembered.
    expect(early.judge()?.verdict.kind).not.toBe('drift');
    expect(balances.seen.get('acct')).toEqual(later);
    expect((await readAccountWatched(client, watch)).drift?.verdict).toEqual({
      kind: 'steady',
      explained: 0,
    });
  });
});

/**
 * A start with a long journal (issue B): the journal is read ahead in chunks, a turn of the event
 * loop each, after the account is shown, never on the first frame's path; the drift judgement waits
 * for it (nothing is shown until it is made) and is made as of the read it judges: an entry written
 * after the read is the next read's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileJournal } from '../../src/app/journal-file';
import { memoryBalances } from '../../src/services/balance-watch';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import type { Journal, JournalEntry } from '../../src/services/changes/journal';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { books } from '../helpers/sandbox';
import { until } from '../helpers/wait';

const TARGET = 'sandbox:test';
const ENTRIES = 20_000;
const entry = (i: number, over: Partial<JournalEntry> = {}): JournalEntry => ({
  opId: `old:${i}`,
  time: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
  target: TARGET,
  operation: 'extend',
  lineId: `line-${i}`,
  username: `user${i}`,
  quotedCost: 3,
  estimate: true,
  deducedCredits: 3,
  newBalance: 1_000,
  outcome: 'applied',
  ...over,
});

/** A journal of ENTRIES old entries in a data dir, watched: how often it was read whole, and when. */
function longJournal() {
  const file = join(mkdtempSync(join(tmpdir(), 'ld-journal-start-')), 'journal.jsonl');
  let text = '';
  for (let i = 0; i < ENTRIES; i++) text += `${JSON.stringify(entry(i))}\n`;
  writeFileSync(file, text);
  const inner = fileJournal(file);
  const seen = { reads: 0, readAhead: false };
  const journal: Journal = {
    ...inner,
    read: (upTo) => {
      seen.reads++;
      return inner.read(upTo);
    },
    readAhead: async () => {
      await inner.readAhead!();
      seen.readAhead = true;
    },
  };
  return { journal, seen };
}

describe('a start with a long journal', () => {
  it('shows the account before the journal is read; the drift is said once it is, as of the read', async () => {
    const { journal, seen } = longJournal();
    const balances = memoryBalances();
    const env = await storeOnSandbox({ lines: 40 }, { journal, balances, intents: memoryIntentLog() });
    const balance = books(env.sb).balance;
    // Last seen a minute ago, 50 credits higher: the journal explains none of it (its entries are
    // older), so the start's read is drift of −50.
    const seenAt = Date.now() - 60_000;
    balances.seen.set(TARGET, { balance: balance + 50, at: seenAt });
    const s = () => env.store.getState();
    let atAccount: { reads: number; readAhead: boolean; drift: unknown } | null = null;
    const stop = env.store.subscribe((now) => {
      if (atAccount || now.account.status !== 'ready') return;
      atAccount = { reads: seen.reads, readAhead: seen.readAhead, drift: now.drift };
      // Learnt after the read, before the journal is read: a charge of 5 for an operation begun
      // before it. A judgement as of the read does not count it (it is the next read's).
      journal.append(
        entry(ENTRIES, { opId: 'late', time: new Date(seenAt + 1).toISOString(), deducedCredits: 5 }),
      );
    });
    await s().start();
    stop();
    // The account was on screen before the journal was read at all, and no verdict with it.
    expect(atAccount).toEqual({ reads: 0, readAhead: false, drift: null });
    expect(loaded(s().lines)?.lines.length).toBeGreaterThan(0);
    await until(() => s().drift !== null);
    expect(seen.readAhead).toBe(true);
    expect(s().drift?.verdict).toMatchObject({ kind: 'drift', difference: -50 });
    // The next read judges at once (the journal is read), from the balance the start remembered:
    // the late charge began before that, so it is not counted again.
    await s().loadAccount();
    expect(s().drift?.verdict.kind).toBe('steady');
  });
});

describe('a start with a journal that cannot be read', () => {
  it('names it once the read ahead fails: the verdict is shown, never dropped', async () => {
    // A folder where the journal should be: it exists, and every read of it fails.
    const file = mkdtempSync(join(tmpdir(), 'ld-journal-dir-'));
    const journal = fileJournal(file);
    const balances = memoryBalances();
    const env = await storeOnSandbox({ lines: 40 }, { journal, balances, intents: memoryIntentLog() });
    balances.seen.set(TARGET, { balance: books(env.sb).balance, at: Date.now() - 60_000 });
    const s = () => env.store.getState();
    await s().loadAccount();
    await until(() => s().drift !== null);
    expect(s().drift?.verdict.kind).toBe('unsure');
    expect(s().drift?.problem).toContain(file);
  });
});

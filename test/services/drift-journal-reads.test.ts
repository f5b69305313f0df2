/**
 * An account read judges drift against the operations begun since the last balance seen, read from
 * the journal without copying the rest of it: the same verdict as judged against every entry (a
 * property over random journals: operations spanning the last read, unreadable times, entries with no
 * operation id, the service's other keys, other services), and a long journal is not copied.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { sameServiceAs } from '../../src/app/account-id';
import { fileJournal } from '../../src/app/journal-file';
import { judgeDrift } from '../../src/domain/balance-drift';
import { memoryBalances, readAccountWatched } from '../../src/services/balance-watch';
import { type JournalEntry, memoryJournal } from '../../src/services/changes/journal';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'ux-drift-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ME = 'https://panel.example/#aaaa0000aaaa0000';
const SAME = 'https://panel.example/#bbbb0000bbbb0000';
const OTHER = 'https://other.example/#aaaa0000aaaa0000';
const NOW = Date.parse('2026-11-20T12:00:00Z');
const SINCE = NOW - 60_000;

const entryArb: fc.Arbitrary<Drawn> = fc.record({
  opId: fc.constantFrom('a', 'b', 'c', 'd', undefined),
  // Around the last read (SINCE) and the read itself (NOW), and one time that does not parse.
  time: fc.constantFrom(SINCE - 10_000, SINCE, SINCE + 1, NOW - 1, NOW, NOW + 1, Number.NaN),
  target: fc.constantFrom(ME, ME, SAME, OTHER),
  operation: fc.constantFrom('extend' as const, 'upgrade' as const, 'unsuspend' as const),
  outcome: fc.constantFrom(
    'applied' as const,
    'applied' as const,
    'not applied' as const,
    'unknown' as const,
  ),
  deducedCredits: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
});

interface Drawn {
  readonly opId: string | undefined;
  readonly time: number;
  readonly target: string;
  readonly operation: JournalEntry['operation'];
  readonly outcome: JournalEntry['outcome'];
  readonly deducedCredits: number | null;
}

const entryOf = (e: Drawn): JournalEntry => ({
  ...(e.opId !== undefined ? { opId: e.opId } : {}),
  time: Number.isNaN(e.time) ? 'not a time' : new Date(e.time).toISOString(),
  target: e.target,
  operation: e.operation,
  lineId: 'l1',
  username: 'user-l1',
  quotedCost: 3,
  estimate: true,
  deducedCredits: e.deducedCredits,
  newBalance: null,
  outcome: e.outcome,
});

describe('the drift judged from the journal read in part', () => {
  it('gives the verdict judged against every entry', async () => {
    const dir = tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryArb, { maxLength: 14 }),
        fc.integer({ min: 80, max: 100 }),
        fc.boolean(),
        fc.boolean(),
        async (raw, balance, seenBefore, onFile) => {
          // The file journal's schema skips a time that does not parse (then not judged at all).
          const all = raw.map((e) => entryOf(onFile && Number.isNaN(e.time) ? { ...e, time: SINCE } : e));
          const journal = onFile ? fileJournal(join(dir, `j${n++}.jsonl`)) : memoryJournal();
          for (const e of all) journal.append(e);
          const seen = seenBefore ? { balance: 100, at: SINCE } : null;
          const balances = memoryBalances();
          if (seen) balances.seen.set(ME, seen);
          const same = sameServiceAs(ME);
          const expected = judgeDrift(
            seen,
            all.filter((e) => e.target === ME),
            balance,
            { from: NOW, to: NOW },
            null,
            all.filter((e) => e.target !== ME && same(e.target)),
          ).verdict;
          const client = { me: async () => ({ credits: balance }) as never };
          const watch = { balances, targetId: ME, sameService: same, journal, now: () => NOW };
          const { drift } = await readAccountWatched(client, watch);
          expect(drift?.verdict).toEqual(expected);
        },
      ),
      { numRuns: 400, seed: 7 },
    );
  });

  it('an account read does not copy a long journal: only the entries since the last balance seen', async () => {
    const file = join(tempDir(), 'journal.jsonl');
    const old = (i: number): JournalEntry =>
      entryOf({
        opId: `old${i}`,
        time: SINCE - 86_400_000 + i,
        target: ME,
        operation: 'extend',
        outcome: 'applied',
        deducedCredits: 1,
      });
    appendFileSync(file, `${Array.from({ length: 2000 }, (_, i) => JSON.stringify(old(i))).join('\n')}\n`);
    const journal = fileJournal(file);
    journal.append(
      entryOf({
        opId: 'new',
        time: NOW - 1000,
        target: ME,
        operation: 'extend',
        outcome: 'applied',
        deducedCredits: 4,
      }),
    );
    const given: number[] = [];
    const watched = {
      ...journal,
      // Every entry copied: what an account read must not ask for.
      read: () => {
        throw new Error('the whole journal was read');
      },
      readWhere: (keep: (e: JournalEntry) => boolean, upTo?: number) => {
        const out = journal.readWhere(keep, upTo);
        given.push(out.length);
        return out;
      },
    };
    const balances = memoryBalances();
    balances.seen.set(ME, { balance: 100, at: SINCE });
    const client = { me: async () => ({ credits: 96 }) as never };
    const { drift } = await readAccountWatched(client, {
      balances,
      targetId: ME,
      journal: watched,
      now: () => NOW,
    });
    expect(drift?.verdict).toEqual({ kind: 'steady', explained: 4 });
    expect(Math.max(...given)).toBe(1);
  });
});

/**
 * The journal's OUTCOME column is the one read first: an outcome the user settled by hand ("applied
 * (by hand)") is their word, not the service's proof, and is shown whole at 100 and 80 columns, and
 * at 60 (the smallest terminal drawn), on one account and on every account; the other columns give
 * way first.
 */
import { describe, expect, it } from 'vitest';
import { type JournalEntry, memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { resize } from '../helpers/resize';

const NOW = new Date(2026, 10, 25, 9, 0).getTime(); // 25 Nov, 09:00 local
let n = 0;
const entry = (over: Partial<JournalEntry>): JournalEntry => ({
  opId: `job:${++n}`,
  time: new Date(2026, 10, 25, 8, n).toISOString(),
  target: 'sandbox:test',
  operation: 'extend',
  lineId: String(n),
  username: `user${n}`,
  quotedCost: 2,
  estimate: true,
  deducedCredits: 2,
  newBalance: 90,
  outcome: 'applied',
  months: 3,
  expiryBefore: new Date(2026, 10, 1, 12).toISOString(),
  expiryAfter: new Date(2027, 1, 1, 12).toISOString(),
  ...over,
});

/** The table's row of `username` on the frame. */
const rowOf = (frame: string, username: string) => frame.split('\n').find((r) => r.includes(username)) ?? '';

const ENTRIES = () => [
  entry({ username: 'proven.applied01', outcome: 'applied' }),
  entry({ username: 'proven.refused02', outcome: 'not applied', deducedCredits: null }),
  entry({ username: 'handapplied03', outcome: 'applied', settledByHand: true }),
  entry({ username: 'handrefused04', outcome: 'not applied', settledByHand: true, deducedCredits: null }),
  entry({
    username: 'otheraccount05',
    target: 'https://panel.example#0123456789abcdef',
    service: 'shopB · panel.example',
    outcome: 'not applied',
    settledByHand: true,
  }),
];

/** The app at `width` columns, on the journal of this account. */
async function journalAt(width: number) {
  const journal = memoryJournal();
  journal.entries.push(...ENTRIES());
  const app = await renderApp({ lines: 5 }, { journal, now: () => NOW });
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  if (width !== 100) resize(app, width, 24);
  await app.press('nav.journal');
  await app.waitFrame((f) => f.includes('Journal —') && f.includes('handrefused04'));
  return app;
}

/** Every outcome on the frame whole: the service's proof plain, the user's verdict "(by hand)". */
function expectWhole(f: string, width: number) {
  expect(rowOf(f, 'proven.applied01').trimEnd()).toMatch(/ applied$/);
  expect(rowOf(f, 'proven.refused02').trimEnd()).toMatch(/ not applied$/);
  expect(rowOf(f, 'handapplied03').trimEnd()).toMatch(/ applied \(by hand\)$/);
  expect(rowOf(f, 'handapplied03')).not.toContain('not applied');
  expect(rowOf(f, 'handrefused04').trimEnd()).toMatch(/ not applied \(by hand\)$/);
  for (const row of f.split('\n')) expect(row.length).toBeLessThanOrEqual(width);
}

describe('the journal view: the outcome is whole, the other columns give way', () => {
  for (const width of [100, 80, 60]) {
    it(`at ${width} columns, on this account and on every account`, async () => {
      const app = await journalAt(width);
      expectWhole(app.frame(), width);
      // What gives way first: the quote; the charge stays down to 74 columns of table.
      expect(app.frame()).not.toContain('QUOTED');
      expect(app.frame().includes('CHARGED')).toBe(width >= 76);
      await app.press('journal.allAccounts');
      await app.waitFrame((f) => f.includes('otheraccount05'));
      expectWhole(app.frame(), width);
      expect(rowOf(app.frame(), 'otheraccount05').trimEnd()).toMatch(/ not applied \(by hand\)$/);
      // Every account's service is said while there is room for it (82 columns of table).
      if (width === 100) expect(rowOf(app.frame(), 'otheraccount05')).toMatch(/shopB +extend/);
    });
  }
});

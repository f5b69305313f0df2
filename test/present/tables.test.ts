import { describe, expect, it } from 'vitest';
import { windowOf } from '../../src/domain/scroll';
import {
  JOURNAL_COLUMNS,
  journalColumns,
  layoutColumns,
  PICKER_COLUMNS,
  type PickerRow,
  rowText,
} from '../../src/present/tables';
import type { JournalEntry } from '../../src/services/changes/journal';

describe('the bouquet picker table, laid out without rendering', () => {
  const long: PickerRow = { id: 412, label: 'Sports Ultra HD — Football and Motorsport', chosen: true };
  const short: PickerRow = { id: 7, label: 'News', chosen: false };
  for (const width of [80, 100, 120]) {
    it(`at ${width} columns: rows fit exactly, a long name is whole, the mark and the id are shown`, () => {
      const laid = layoutColumns(PICKER_COLUMNS, width, 1, { items: [long, short], now: 0 });
      expect(rowText(laid, long)).toHaveLength(width);
      expect(rowText(laid, long)).toContain(long.label);
      expect(rowText(laid, long).startsWith('[x]')).toBe(true);
      expect(rowText(laid, short).startsWith('[ ]')).toBe(true);
      expect(rowText(laid, long).trimEnd().endsWith('412')).toBe(true);
      expect(rowText(laid, null)).toContain('BOUQUET');
    });
  }

  it('the window follows the cursor and says where it is when the list is longer than the screen', () => {
    expect(windowOf(200, 10, 150 - 5)).toMatchObject({ start: 145, end: 155, position: '146–155 of 200' });
    expect(windowOf(200, 10, 0 - 5)).toMatchObject({ start: 0, end: 10 });
    expect(windowOf(200, 10, 199 - 5)).toMatchObject({ start: 190, end: 200 });
    expect(windowOf(8, 10, 3).position).toBe('');
  });
});

describe('the journal table', () => {
  const entry = (over: Partial<JournalEntry>): JournalEntry => ({
    time: '2026-11-22T12:00:00.000Z',
    target: 'x',
    operation: 'extend',
    lineId: 'id',
    username: 'alice',
    quotedCost: 5,
    estimate: true,
    deducedCredits: null,
    newBalance: null,
    outcome: 'applied',
    ...over,
  });
  it("an outcome the user settled by hand says so: their word, not the service's proof", () => {
    const byHand = entry({ settledByHand: true });
    const proven = entry({ username: 'bob' });
    for (const width of [80, 100, 120]) {
      const laid = layoutColumns(JOURNAL_COLUMNS, width, 1, { items: [byHand, proven], now: 0 });
      expect(rowText(laid, byHand)).toHaveLength(width);
      expect(rowText(laid, byHand)).toContain('applied (by hand)');
      expect(rowText(laid, proven)).not.toContain('by hand');
    }
    const notApplied = entry({ outcome: 'not applied', settledByHand: true });
    const laid = layoutColumns(JOURNAL_COLUMNS, 120, 1, { items: [notApplied], now: 0 });
    expect(rowText(laid, notApplied)).toContain('not applied (by hand)');
  });

  it('the outcome is whole at every width the screen draws (the others give way), in short below, never cut', () => {
    const long = 'a-username-of-thirty-chars-xyz';
    const rows = [
      entry({ username: long, outcome: 'not applied', settledByHand: true, months: 12 }),
      entry({ username: long, outcome: 'applied', settledByHand: true }),
      entry({ username: long, outcome: 'not applied' }),
    ];
    const [handNo, handYes, proven] = rows as [JournalEntry, JournalEntry, JournalEntry];
    for (const all of [true, false]) {
      // The screen's table is the terminal's width less two (MIN_COLUMNS 60 → 58); a command's is
      // the terminal's (single gaps below two gaps' room).
      for (let width = 44; width <= 140; width++) {
        const laid = layoutColumns(journalColumns(all), width, 1, { items: rows, now: 0 });
        const at = `${width} columns, ${all ? 'every account' : 'one account'}`;
        if (width >= 56) {
          expect(rowText(laid, handNo), at).toHaveLength(width);
          expect(rowText(laid, handNo).trimEnd(), at).toMatch(/ not applied \(by hand\)$/);
          expect(rowText(laid, handYes).trimEnd(), at).toMatch(/ applied \(by hand\)$/);
          expect(rowText(laid, proven).trimEnd(), at).toMatch(/ not applied$/);
        } else {
          expect(rowText(laid, handNo).trimEnd(), at).toMatch(/ by hand: no$/);
          expect(rowText(laid, handYes).trimEnd(), at).toMatch(/ by hand: yes$/);
          expect(rowText(laid, proven).trimEnd(), at).toMatch(/ not applied$/);
          if (width >= 47) expect(rowText(laid, handNo), at).toHaveLength(width);
        }
      }
    }
    // What gives way, by the columns' own minTerminal: the service before the charge, the operation last.
    const ids = (width: number) =>
      layoutColumns(journalColumns(true), width, 1, { items: rows, now: 0 }).map((l) => l.column.id);
    expect(ids(58)).toEqual(['time', 'line', 'outcome']);
    expect(ids(78)).toEqual(['time', 'operation', 'line', 'charged', 'outcome']);
    expect(ids(98)).toEqual(['time', 'service', 'operation', 'line', 'charged', 'outcome']);
    expect(ids(118)).toHaveLength(9);
  });
});

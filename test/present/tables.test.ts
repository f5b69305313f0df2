import { describe, expect, it } from 'vitest';
import { windowOf } from '../../src/domain/scroll';
import {
  JOURNAL_COLUMNS,
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
    // At 100 columns every column is at its least (the outcome is cut there, as any cell is).
    for (const width of [80, 120]) {
      const laid = layoutColumns(JOURNAL_COLUMNS, width, 1, { items: [byHand, proven], now: 0 });
      expect(rowText(laid, byHand)).toHaveLength(width);
      expect(rowText(laid, byHand)).toContain('applied (by hand)');
      expect(rowText(laid, proven)).not.toContain('by hand');
    }
    const notApplied = entry({ outcome: 'not applied', settledByHand: true });
    const laid = layoutColumns(JOURNAL_COLUMNS, 120, 1, { items: [notApplied], now: 0 });
    expect(rowText(laid, notApplied)).toContain('not applied (by hand)');
  });
});

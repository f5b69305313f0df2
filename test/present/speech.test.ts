import { describe, expect, it } from 'vitest';
import type { LineListItem, Package } from '../../src/api/contract';
import { LINE_COLUMNS, lineColumns } from '../../src/present/lines-columns';
import {
  lineSentence,
  menuItem,
  progressStep,
  rowSentence,
  spoken,
  wrappedRows,
} from '../../src/present/speech';
import { JOURNAL_COLUMNS, PACKAGE_COLUMNS, PICKER_COLUMNS } from '../../src/present/tables';
import type { JournalEntry } from '../../src/services/changes/journal';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const line = (over: Partial<Record<keyof LineListItem, unknown>> = {}) =>
  ({
    id: '7',
    username: 'sofiamurphy161213',
    label: 'Grandma',
    enabled: true,
    is_trial: false,
    connections: 1,
    exp_date: { ms: NOW + 354 * DAY, raw: '' },
    created_at: { ms: NOW - 30 * DAY, raw: '' },
    ...over,
  }) as unknown as LineListItem;

describe('a row as one sentence (the screen-reader mode), from the columns the table draws with', () => {
  it("a line of the browser: its values in the columns' order, then marked", () => {
    expect(lineSentence(LINE_COLUMNS, line(), NOW, { isMarked: true })).toBe(
      'sofiamurphy161213, Grandma, active, premium, 1 connection, expires in 354 days, marked',
    );
  });

  it('an expired trial with no label, two connections, unmarked', () => {
    const l = line({ label: '', is_trial: true, connections: 2, exp_date: { ms: NOW - 3 * DAY, raw: '' } });
    expect(lineSentence(LINE_COLUMNS, l, NOW, { isMarked: false })).toBe(
      'sofiamurphy161213, expired, trial, 2 connections, expired 3 days ago',
    );
  });

  it('a line that never expires, and one with a note (the Note column is said too)', () => {
    const notes = new Map([['7', { name: 'Anna', phone: '', text: 'pays cash', updatedAt: '' }]]);
    const s = lineSentence(lineColumns(notes), line({ exp_date: null }), NOW, { isMarked: false });
    expect(s).toMatch(
      /^sofiamurphy161213, Grandma, note: .*Anna.*, active, premium, 1 connection, never expires$/,
    );
  });

  it('other tables: "Header: value", glyphs in words, empty cells left out', () => {
    const pkg = {
      id: 1,
      package_name: 'Premium 3',
      is_trial: false,
      duration: 3,
      credits_cost: 30,
      extra_connection_credits_cost: 5,
      min_balance: 0,
    } as unknown as Package;
    expect(rowSentence(PACKAGE_COLUMNS, pkg)).toBe(
      'Name: Premium 3, Type: premium, Duration: 3 months, Cost: 30, Extra conn: 5, Min balance: 0',
    );
    const entry = {
      time: '2026-11-22T10:00:00.000Z',
      target: 'sandbox:local',
      operation: 'upgrade',
      username: 'bob',
      connectionsBefore: 1,
      connectionsAfter: 2,
      quotedCost: null,
      deducedCredits: 4,
      newBalance: 96,
      outcome: 'applied',
    } as unknown as JournalEntry;
    const said = rowSentence(JOURNAL_COLUMNS, entry);
    expect(said).toContain('Operation: upgrade, Line: bob, What: conn 1 to 2, Charged: 4, Balance: 96');
    expect(said).not.toContain('Quoted');
    expect(said).not.toMatch(/[→—…]/);
    expect(rowSentence(PICKER_COLUMNS, { id: 3, label: 'Sports', chosen: true })).toBe(
      'chosen, Bouquet: Sports, Id: 3',
    );
  });

  it('menus are numbered; a lone "—" is none', () => {
    expect(menuItem(1, 5, 'Copy the password')).toBe('2 of 5: Copy the password');
    expect(spoken('—')).toBe('none');
  });

  it('progress moves in steps of 10%, whole at the end', () => {
    expect([0, 1, 9, 10, 19, 33, 99, 100].map((d) => progressStep(d, 100))).toEqual([
      0, 0, 0, 10, 10, 30, 90, 100,
    ]);
    expect(progressStep(0, 0)).toBe(100);
  });
});

describe('wrappedRows', () => {
  it('counts the rows a sentence wraps to at spaces, cutting a word longer than the row', () => {
    expect(wrappedRows('', 10)).toBe(1);
    expect(wrappedRows('one two', 7)).toBe(1);
    expect(wrappedRows('one two', 6)).toBe(2);
    // Wrapped at a space, the second row starts with the word that did not fit (not cut mid-word).
    expect(wrappedRows('aaaa bbbbbb', 8)).toBe(2);
    expect(wrappedRows('x'.repeat(25), 10)).toBe(3);
    expect(wrappedRows(`ab ${'x'.repeat(25)} cd`, 10)).toBe(4);
    // More rows than the characters alone would say: what ceil(length / width) undercounts.
    const words = 'aaaaaa bbbbbb cccccc dddddd'; // 27 characters: 2 rows by length, 4 wrapped at 10
    expect(wrappedRows(words, 10)).toBe(4);
  });
});

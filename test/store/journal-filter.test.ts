/**
 * The journal's days are this machine's local days (issue 24: "what did we spend yesterday"), not
 * UTC's: checked in a zone far from UTC, where the two disagree for hours each day.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type JournalEntry, journalTotals } from '../../src/services/changes/journal';
import {
  filterJournal,
  parsePeriodEdge,
  periodRange,
  serviceOf,
} from '../../src/services/changes/journal-filter';
import { journalWhat } from '../../src/ui/tables';

const saved = process.env.TZ;
beforeEach(() => {
  process.env.TZ = 'Pacific/Auckland'; // UTC+13 in November
});
afterEach(() => {
  process.env.TZ = saved;
});

const entry = (time: string, over: Partial<JournalEntry> = {}): JournalEntry => ({
  time,
  target: 'sandbox:x',
  operation: 'extend',
  lineId: '1',
  username: 'u',
  quotedCost: 2,
  estimate: true,
  deducedCredits: 2,
  newBalance: null,
  outcome: 'applied',
  ...over,
});

describe('journal periods on local days', () => {
  it('today, yesterday and a day are local midnights; --until a day includes it', () => {
    const now = Date.parse('2026-11-24T20:00:00Z'); // 25 Nov, 09:00 in Auckland
    expect(new Date(parsePeriodEdge('today', 'since', now)!).toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(new Date(parsePeriodEdge('yesterday', 'since', now)!).toISOString()).toBe(
      '2026-11-23T11:00:00.000Z',
    );
    expect(new Date(parsePeriodEdge('yesterday', 'until', now)!).toISOString()).toBe(
      '2026-11-24T11:00:00.000Z',
    );
    expect(new Date(parsePeriodEdge('2026-11-01', 'since', now)!).toISOString()).toBe(
      '2026-10-31T11:00:00.000Z',
    );
    expect(parsePeriodEdge('2026-02-31', 'since', now)).toBeNull();
    expect(parsePeriodEdge('Yesterday ', 'since', now)).not.toBeNull();
    // 23:30 UTC on the 23rd is the 24th in Auckland: yesterday's, not the day before.
    const { entries } = filterJournal([entry('2026-11-23T23:30:00Z'), entry('2026-11-23T10:30:00Z')], {
      account: null,
      ...periodRange('yesterday', now),
    });
    expect(entries.map((e) => e.time)).toEqual(['2026-11-23T23:30:00Z']);
  });

  it('totals are per local day, and only what was applied counts as done and charged', () => {
    const t = journalTotals([
      entry('2026-11-23T23:30:00Z'),
      entry('2026-11-23T23:40:00Z', { outcome: 'rejected', deducedCredits: null }),
      entry('2026-11-23T23:50:00Z', { outcome: 'unknown', deducedCredits: null }),
      entry('2026-11-23T23:55:00Z', { deducedCredits: null }),
    ]);
    expect(t).toEqual([
      {
        day: '2026-11-24',
        operation: 'extend',
        count: 2,
        credits: 2,
        chargeUnknown: 1,
        notApplied: 1,
        unknown: 1,
      },
    ]);
  });

  it('an entry says its service and what was bought; an earlier one reads as it was', () => {
    expect(serviceOf(entry('2026-11-24T00:00:00Z', { service: 'shopB · panel.example' }))).toBe('shopB');
    expect(serviceOf(entry('2026-11-24T00:00:00Z', { target: 'https://panel.example#ab' }))).toBe(
      'panel.example',
    );
    expect(serviceOf(entry('2026-11-24T00:00:00Z', { target: 'https://panel.example' }))).toBe(
      'panel.example (account?)',
    );
    expect(serviceOf(entry('2026-11-24T00:00:00Z', { target: '' }))).toBe('?');
    expect(
      journalWhat(
        entry('2026-11-24T00:00:00Z', {
          months: 3,
          connectionsBefore: 1,
          connectionsAfter: 1,
          expiryBefore: '2026-12-01T00:00:00Z',
          expiryAfter: '2027-03-01T00:00:00Z',
        }),
      ),
    ).toBe('3mo 2026-12-01→2027-03-01');
    expect(
      journalWhat(
        entry('2026-11-24T00:00:00Z', { operation: 'upgrade', connectionsBefore: 1, connectionsAfter: 2 }),
      ),
    ).toBe('conn 1→2');
    expect(journalWhat(entry('2026-11-24T00:00:00Z'))).toBe('');
  });
});

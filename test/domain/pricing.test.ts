import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Package } from '../../src/api/contract';
import { affordability, type BulkLine, planLine } from '../../src/domain/bulk';
import { addMonths, extendEstimate, extendedExpiry } from '../../src/domain/estimate';
import { affordableCount, balanceNeeded, lineCost, upgradeCost } from '../../src/domain/pricing';
import { LINE_COLUMNS, layoutColumns } from '../../src/present/lines-columns';
import { JOURNAL_COLUMNS, PACKAGE_COLUMNS, rowText } from '../../src/present/tables';
import type { JournalEntry } from '../../src/services/changes/journal';
import { packageItem as P } from '../helpers/fixtures';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);

describe('pricing (the sandbox charges it, the app estimates with it)', () => {
  it('a line costs the package plus each connection beyond the first', () => {
    expect(lineCost(P(), 1)).toBe(5);
    expect(lineCost(P(), 3)).toBe(9);
  });
  it('an upgrade prorates the added connections over the whole days left, rounded up; removing is free', () => {
    expect(upgradeCost(P({ extra_connection_credits_cost: 3 }), 1, 2, NOW + 15 * DAY, NOW)).toBe(2); // 3×15/30 = 1.5 → 2
    expect(upgradeCost(P(), 3, 1, NOW + 15 * DAY, NOW)).toBe(0);
    expect(upgradeCost(P(), 1, 2, null, NOW)).toBe(0);
    expect(upgradeCost(P(), 1, 2, NOW - DAY, NOW)).toBe(0);
  });
  it('min_balance: the balance needed is never below it; nothing is affordable under it', () => {
    expect(balanceNeeded(5, P({ min_balance: 50 }))).toBe(50);
    expect(balanceNeeded(60, P({ min_balance: 50 }))).toBe(60);
    expect(affordableCount(40, P({ min_balance: 50 }))).toBe(0);
    expect(affordableCount(52, P({ min_balance: 50 }))).toBe(10);
  });
  it('extend estimate: the regular package of that duration, never a trial', () => {
    const pkgs = [P({ id: 9, is_trial: true, duration: 1 }), P({ id: 2, duration: 3, credits_cost: 12 })];
    expect(extendEstimate(pkgs, 1, 1)).toBeNull();
    expect(extendEstimate(pkgs, 3, 2)?.cost).toBe(14);
  });
  it('months are calendar months; the 31st rolls to the last day; an expired line restarts now', () => {
    expect(new Date(addMonths(Date.UTC(2026, 0, 31), 1)).toISOString().slice(0, 10)).toBe('2026-02-28');
    expect(extendedExpiry(NOW - 10 * DAY, 1, NOW)).toBe(addMonths(NOW, 1));
    expect(extendedExpiry(NOW + 10 * DAY, 1, NOW)).toBe(addMonths(NOW + 10 * DAY, 1));
  });
});

const line = (over: Partial<BulkLine['before']> = {}, id = 'a'): BulkLine => ({
  id,
  username: `u${id}`,
  before: { expMs: NOW + DAY, expRaw: null, connections: 1, enabled: true, isTrial: false, ...over },
  cost: null,
  after: {},
  state: 'pending',
});

describe('bulk planning', () => {
  it('skips what the server would refuse or what changes nothing, each with its reason', () => {
    const p = { months: 1 as const, connections: 2 };
    expect(planLine(line({ isTrial: true }), 'extend', p, [P()], NOW)).toMatchObject({
      state: 'skipped',
      cost: 0,
    });
    expect(planLine(line({ isTrial: true }), 'upgrade', p, [P()], NOW).state).toBe('skipped');
    expect(planLine(line({ connections: 2 }), 'upgrade', p, [P()], NOW).detail).toBe('already 2 connections');
    expect(planLine(line({ enabled: true }), 'unsuspend', p, [P()], NOW).detail).toBe('not suspended');
    expect(planLine(line(), 'extend', p, [P()], NOW)).toMatchObject({ state: 'pending', cost: 5 });
  });
  it('an unreadable expiry is not counted from today', () => {
    const planned = planLine(
      line({ expMs: null, expRaw: 'someday' }),
      'extend',
      { months: 1, connections: 1 },
      [P()],
      NOW,
    );
    expect(planned.after.expMs).toBeUndefined();
  });
  it('affordability: the affordable ones are taken in order and their total is what the job costs (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { maxLength: 30 }), fc.nat(200), (costs, balance) => {
        const lines = costs.map((c, i) => ({ ...line({}, String(i)), cost: c }));
        const a = affordability(lines, balance);
        const spent = lines.filter((l) => a.affordable.has(l.id)).reduce((n, l) => n + (l.cost ?? 0), 0);
        expect(a.spent).toBe(spent);
        expect(a.spent).toBeLessThanOrEqual(balance);
        expect(a.total).toBe(costs.reduce((n, c) => n + c, 0));
        expect(a.fitsAll).toBe(a.total <= balance);
      }),
    );
  });
});

describe('line columns, laid out without rendering', () => {
  for (const width of [80, 100, 120]) {
    it(`at ${width} columns the row fills the width exactly and every column keeps its minimum`, () => {
      const laid = layoutColumns(LINE_COLUMNS, width);
      const used = laid.reduce((n, c) => n + c.width, 0) + (laid.length - 1);
      expect(used).toBe(width);
      for (const { column, width: w } of laid)
        expect(w).toBeGreaterThanOrEqual(typeof column.width === 'number' ? column.width : column.width.min);
      if (width < 90) expect(laid.map((c) => c.column.id)).not.toContain('created');
    });
  }
});

describe('column widths follow content', () => {
  it('a 30-character label is not cut while the username column has room', () => {
    const row = (username: string, label: string) =>
      ({
        username,
        label,
        enabled: true,
        is_trial: false,
        connections: 1,
        exp_date: null,
        created_at: null,
      }) as never;
    const items = [row('ann01', 'Living room TV in the cottage'), row('bob02', 'Kitchen')];
    const laid = layoutColumns(LINE_COLUMNS, 100, 1, { items, now: NOW });
    const width = (id: string) => laid.find((c) => c.column.id === id)!.width;
    expect(width('label')).toBeGreaterThanOrEqual('Living room TV in the cottage'.length);
    expect(laid.reduce((n, c) => n + c.width, 0) + laid.length - 1).toBe(100);
    // Without rows (nothing loaded yet) the shares are by weight, as before.
    const plain = layoutColumns(LINE_COLUMNS, 100);
    expect(plain.find((c) => c.column.id === 'username')!.width).toBeGreaterThan(
      plain.find((c) => c.column.id === 'label')!.width,
    );
  });
});

describe('packages and journal tables, laid out without rendering', () => {
  const pkg = {
    id: 1,
    package_name: 'Premium twelve months with extras',
    duration: 12,
    is_trial: false,
    credits_cost: 1200,
    extra_connection_credits_cost: 50,
    min_balance: 0,
  } as Package;
  const entry = {
    time: '2026-11-22T12:00:00.000Z',
    target: 'x',
    operation: 'extend',
    lineId: 'id',
    username: 'ameliasmith000794',
    quotedCost: 5,
    estimate: true,
    deducedCredits: 5,
    newBalance: 1_995,
    outcome: 'applied',
  } as JournalEntry;
  for (const width of [80, 100, 120]) {
    it(`at ${width} columns: the row fits exactly, the name and the username are whole`, () => {
      const p = layoutColumns(PACKAGE_COLUMNS, width, 1, { items: [pkg], now: 0 });
      expect(rowText(p, pkg)).toHaveLength(width);
      expect(rowText(p, pkg)).toContain('Premium twelve months with extras');
      expect(rowText(p, null)).toContain('EXTRA CONN');
      expect(rowText(p, null).includes('MIN BALANCE')).toBe(width >= 90);
      const j = layoutColumns(JOURNAL_COLUMNS, width, 1, { items: [entry], now: 0 });
      expect(rowText(j, entry)).toHaveLength(width);
      expect(rowText(j, entry)).toContain('ameliasmith000794');
      expect(rowText(j, entry)).toContain('applied');
      if (width >= 112) expect(rowText(j, entry)).toContain('5~');
    });
  }
});

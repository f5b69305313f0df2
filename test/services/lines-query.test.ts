/** After a change whose rows were replaced in place, is the page still the server's? (issue 27) */
import { describe, expect, it } from 'vitest';
import type { LineListItem, OrderBy } from '../../src/api/contract';
import { LINE_TYPES, ORDER_BY } from '../../src/api/contract/choices';
import { DEFAULT_QUERY, pageStaysAfter, passesFilters, STATUS_VIEWS } from '../../src/services/lines-query';

describe('pageStaysAfter', () => {
  it('an upgrade moves nothing; an extend only where expiry orders or filters; create and delete always', () => {
    const q = DEFAULT_QUERY;
    expect(pageStaysAfter('upgrade', { ...q, orderBy: 'exp_date', status: 'expiring' })).toBe(true);
    expect(pageStaysAfter('extend', q)).toBe(true);
    expect(pageStaysAfter('extend', { ...q, search: 'ann', type: 'premium', orderBy: 'username' })).toBe(
      true,
    );
    expect(pageStaysAfter('extend', { ...q, orderBy: 'exp_date' })).toBe(false);
    for (const status of ['active', 'expiring', 'expired'] as const)
      expect(pageStaysAfter('extend', { ...q, status })).toBe(false);
    expect(pageStaysAfter('unsuspend', q)).toBe(true);
    expect(pageStaysAfter('unsuspend', { ...q, status: 'suspended' })).toBe(false);
    expect(pageStaysAfter('unsuspend', { ...q, orderBy: 'enabled' })).toBe(false);
    for (const op of ['create', 'trial', 'delete'] as const) expect(pageStaysAfter(op, q)).toBe(false);
  });
});

describe('pageStaysAfter against what each change does to a line', () => {
  it('every view it keeps holds the changed line as before: the same filters passed, the same sort key', () => {
    const NOW = Date.UTC(2026, 10, 22, 12);
    const DAY = 86_400_000;
    const line = (over: Partial<LineListItem>): LineListItem =>
      ({
        id: 'l1',
        username: 'ann-line-0001',
        enabled: true,
        connections: 1,
        is_trial: false,
        exp_date: { ms: NOW + 40 * DAY, raw: 'x' },
        ...over,
      }) as never;
    const at = (ms: number | null) => (ms === null ? null : { ms, raw: 'x' });
    // Lines before a change: expired, expiring, running, no expiry; enabled or not; trial or not.
    const befores = [-3 * DAY, 2 * DAY, 40 * DAY, null].flatMap((d) =>
      [true, false].flatMap((enabled) =>
        [true, false].map((is_trial) =>
          line({ exp_date: at(d === null ? null : NOW + d), enabled, is_trial }),
        ),
      ),
    );
    // What each change does to its line (the reference's state table).
    const changed: Record<'extend' | 'upgrade' | 'unsuspend', (l: LineListItem) => LineListItem[]> = {
      extend: (l) =>
        [1, 3, 12].map((months) => ({
          ...l,
          exp_date: at(Math.max(NOW, l.exp_date?.ms ?? NOW) + months * 30 * DAY),
        })),
      upgrade: (l) => [1, 6].map((connections) => ({ ...l, connections })),
      unsuspend: (l) => [{ ...l, enabled: true }],
    };
    const key: Record<OrderBy, (l: LineListItem) => unknown> = {
      id: (l) => l.id,
      username: (l) => l.username,
      enabled: (l) => l.enabled,
      exp_date: (l) => l.exp_date?.ms,
    };
    for (const op of ['extend', 'upgrade', 'unsuspend'] as const)
      for (const status of STATUS_VIEWS)
        for (const type of LINE_TYPES)
          for (const orderBy of ORDER_BY) {
            const q = { ...DEFAULT_QUERY, status, type, orderBy };
            if (!pageStaysAfter(op, q)) continue;
            for (const before of befores)
              for (const after of changed[op](before)) {
                const what = `${op} ${JSON.stringify(q)} ${JSON.stringify(before)}`;
                expect(passesFilters(after, q, NOW), what).toBe(passesFilters(before, q, NOW));
                expect(key[orderBy](after), what).toEqual(key[orderBy](before));
              }
          }
  });
});

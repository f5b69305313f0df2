/** The runway over lines read up to the fetch's cap: no all-clear for the lines after it. */
import { describe, expect, it } from 'vitest';
import type { LineListItem, Package } from '../../src/api/contract';
import { runwayOf } from '../../src/services/runway';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const PKG = {
  id: 1,
  package_name: '1 month',
  duration: 1,
  is_trial: false,
  credits_cost: 1,
  extra_connection_credits_cost: 0,
  min_balance: 0,
} as Package;
const line = (i: number, inDays: number) =>
  ({
    id: `l${i}`,
    username: `user-${i}`,
    connections: 1,
    enabled: true,
    is_trial: false,
    exp_date: { ms: NOW + inDays * DAY, raw: 'x' },
  }) as never as LineListItem;

describe('runwayOf', () => {
  it('a list cut at the cap is covered up to its last line read, not the whole window', () => {
    const lines = [line(1, 2), line(2, 5.5)];
    const read = { lines, capped: false, at: NOW, days: 30 };
    expect(runwayOf(read, [PKG], 1000)).toMatchObject({ covers: true, coveredDays: 30 });
    expect(runwayOf({ ...read, capped: true }, [PKG], 1000)).toMatchObject({ covers: false, coveredDays: 5 });
    // Short before the cap: the plan's own answer.
    expect(runwayOf({ ...read, capped: true }, [PKG], 1)).toMatchObject({ covers: false, coveredDays: 5 });
    expect(runwayOf({ ...read, capped: true }, [PKG], 0)).toMatchObject({ covers: false, coveredDays: 2 });
  });
});

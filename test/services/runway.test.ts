/** The runway over lines read up to the fetch's cap: no all-clear for the lines after it. */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem, Package } from '../../src/api/contract';
import { fetchRenewals } from '../../src/services/renewals-fetch';
import { fetchRunwayLines, runwayDueOf, runwayOf } from '../../src/services/runway';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

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

describe('runwayDueOf', () => {
  it('the lines the runway walks, soonest first and priced, with no balance; the runway judges the same lines', () => {
    const trial = { ...line(9, 1), is_trial: true } as LineListItem;
    const read = { lines: [line(1, 5), trial, line(2, 2), line(3, 40)], capped: false, at: NOW, days: 30 };
    const due = runwayDueOf(read, [PKG]);
    expect(due.rows.map((r) => [r.line.id, r.cost])).toEqual([
      ['l2', 1],
      ['l1', 1],
    ]);
    expect(due.trials.map((l) => l.id)).toEqual(['l9']);
    const plan = runwayOf(read, [PKG], 1);
    expect(plan.rows.map((r) => r.line.id)).toEqual(due.rows.map((r) => r.line.id));
    expect(plan.lapsing.map((r) => r.line.id)).toEqual(['l1']);
  });
});

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

describe('fetchRunwayLines', () => {
  it('reads the expiring side only: the lines the renewals fetch finds, a page of the expired side less', async () => {
    const env = await sandbox({ lines: 240 });
    let requests = 0;
    const client = createClient({
      baseUrl: env.sb.baseUrl,
      apiKey: DEMO_KEY,
      retry: { maxAttempts: 1 },
      onEvent: () => {
        requests++;
      },
    });
    try {
      const now = Date.now();
      const runway = await fetchRunwayLines(client, 30, now);
      const walk = requests;
      requests = 0;
      const renewals = await fetchRenewals(client, { withinDays: 30, expiredDays: 1 }, now, undefined, {
        suspended: false,
      });
      expect(runway.lines.map((l) => l.id)).toEqual(renewals.expiring.map((l) => l.id));
      expect(runway.lines.length).toBeGreaterThan(0);
      expect(walk).toBe(requests - 1);
    } finally {
      await client.close();
    }
  });
});

/**
 * `planChanged` against the planning rules themselves (domain/bulk.ts `planLine`, and the service's
 * upgrade price, domain/pricing.ts `upgradeCost`, which the sandbox charges and its quote gives): for
 * a line planned to be sent as marked (`was`) and read again just before sending (`now`), a null
 * ("the plan stands") is said only when planning the op on `now` gives the same skip decision, cost,
 * words and, for an upgrade, the same price. (The converse is not asked: `planChanged` may call a plan
 * changed that is the same in whole days, a delete's expiry moved by an hour.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BulkLine, type BulkOp, planChanged, planLine } from '../../src/domain/bulk';
import { upgradeCost } from '../../src/domain/pricing';
import type { Months } from '../../src/domain/steps';
import { packageItem as P } from '../helpers/fixtures';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const packages = [P({ duration: 1, credits_cost: 5, extra_connection_credits_cost: 2 })];
const monthly = packages[0]!;
const OPS: readonly BulkOp[] = ['extend', 'upgrade', 'unsuspend', 'delete'];

/** An expiry: readable (past or future), none (never expires), or one the server wrote unreadably. */
const expiry = fc.oneof(
  fc.integer({ min: -400, max: 400 }).map((d) => {
    const ms = NOW + d * DAY + 3_600_000;
    return { expMs: ms, expRaw: new Date(ms).toISOString() };
  }),
  fc.constant({ expMs: null, expRaw: null }),
  fc.constantFrom('soon', 'n/a').map((raw) => ({ expMs: null, expRaw: raw })),
);
const before = fc
  .record({
    exp: expiry,
    connections: fc.integer({ min: 1, max: 6 }),
    enabled: fc.boolean(),
    isTrial: fc.boolean(),
  })
  .map(({ exp, ...rest }): BulkLine['before'] => ({ ...exp, ...rest }));

/** `now`: as `was`, `was` with one field another, or any line. */
const readAgain = (was: BulkLine['before']) =>
  fc.oneof(
    fc.constant(was),
    expiry.map((e) => ({ ...was, ...e })),
    fc.integer({ min: 1, max: 6 }).map((connections) => ({ ...was, connections })),
    fc.constant({ ...was, enabled: !was.enabled }),
    fc.constant({ ...was, isTrial: !was.isTrial }),
    before,
  );

const line = (b: BulkLine['before']): BulkLine => ({
  id: 'l1',
  username: 'u1',
  before: b,
  cost: null,
  after: {},
  state: 'pending',
});

describe('planChanged says the plan stands only when planning again gives the same plan', () => {
  it('for every op, and lines changed in any way between marking and sending', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPS),
        fc.integer({ min: 1, max: 6 }),
        before.chain((was) => fc.tuple(fc.constant(was), readAgain(was))),
        (op, connections, [was, now]) => {
          const params = { months: 1 as Months, connections };
          const a = planLine(line(was), op, params, packages, NOW);
          // Only a line its plan sends is read again.
          fc.pre(a.state === 'pending');
          if (planChanged(op, was, now) !== null) return;
          const b = planLine(line(now), op, params, packages, NOW);
          expect([b.state, b.cost, b.detail, b.after]).toEqual([
            a.state,
            a.cost,
            a.detail,
            op === 'extend' ? b.after : a.after,
          ]);
          if (op === 'upgrade')
            expect(upgradeCost(monthly, now.connections, connections, now.expMs, NOW)).toBe(
              upgradeCost(monthly, was.connections, connections, was.expMs, NOW),
            );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

/** The runway's walk and the drift's judgement, as pure functions (the sandbox tests run them over HTTP). */
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { judgeDrift, type SpendEntry } from '../../src/domain/balance-drift';
import { planRunway } from '../../src/domain/runway';
import { packageItem as P } from '../helpers/fixtures';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const L = (id: string, inDays: number, over: Partial<LineListItem> = {}): LineListItem =>
  ({
    id,
    username: `user-${id}`,
    connections: 1,
    enabled: true,
    is_trial: false,
    exp_date: { ms: NOW + inDays * DAY, raw: 'x' },
    ...over,
  }) as never;

describe('planRunway', () => {
  it('walks expiries soonest first; the balance covers up to the first line it cannot renew', () => {
    const lines = [L('c', 20), L('a', 3.5), L('b', 10.2, { connections: 2 })];
    const r = planRunway(lines, [P()], 12, 30, NOW);
    expect(r.rows.map((x) => x.line.id)).toEqual(['a', 'b', 'c']);
    expect(r.rows.map((x) => x.cost)).toEqual([5, 7, 5]);
    expect(r.covers).toBe(false);
    expect(r.coveredDays).toBe(20);
    expect(r.lapsing.map((x) => x.line.id)).toEqual(['c']);
    expect(r.needed).toBe(17);
    expect(planRunway(lines, [P()], 17, 30, NOW)).toMatchObject({ covers: true, coveredDays: 30 });
    // Lines beyond the window, already expired or with no expiry are not the window's.
    expect(
      planRunway([L('x', 31), L('y', -1), L('z', 0, { exp_date: null })], [P()], 0, 30, NOW).rows,
    ).toEqual([]);
  });

  it('honours min_balance; trials (cannot be extended) and suspended lines are set apart; no price, no count', () => {
    const lines = [L('a', 1), L('t', 2, { is_trial: true }), L('s', 3, { enabled: false }), L('b', 4)];
    const r = planRunway(lines, [P({ min_balance: 8 })], 12, 30, NOW);
    // 12 ≥ 8 renews a (7 left); 7 < 8 leaves b to lapse.
    expect(r.lapsing.map((x) => x.line.id)).toEqual(['b']);
    expect(r.coveredDays).toBe(4);
    expect(r.trials.map((l) => l.id)).toEqual(['t']);
    expect(r.suspended.map((l) => l.id)).toEqual(['s']);
    const none = planRunway(lines, [P({ duration: 3 })], 100, 30, NOW);
    expect(none).toMatchObject({ unpriced: 2, needed: 0 });
    // Unpriced is not covered: no all-clear (exit 0) for lines nobody could price; it ends at the first.
    expect(none).toMatchObject({ covers: false, coveredDays: 1 });
    expect(planRunway([L('a', 2), L('b', 9)], [], 100, 30, NOW)).toMatchObject({
      covers: false,
      coveredDays: 2,
    });
  });
});

describe('judgeDrift', () => {
  const T0 = NOW;
  const at = (ms: number) => new Date(ms).toISOString();
  const e = (over: Partial<SpendEntry>): SpendEntry => ({
    time: at(T0 + 1000),
    operation: 'extend',
    outcome: 'applied',
    deducedCredits: 5,
    ...over,
  });
  const read = { from: T0 + 5000, to: T0 + 6000 };
  const seen = { balance: 100, at: T0 };

  it('first read remembers; journaled charges explain a fall; anything else is drift, with its amount', () => {
    expect(judgeDrift(null, [], 100, read, null)).toEqual({
      verdict: { kind: 'first' },
      remember: { balance: 100, at: read.from },
    });
    expect(judgeDrift(seen, [e({})], 95, read, null).verdict).toEqual({ kind: 'steady', explained: 5 });
    expect(judgeDrift(seen, [e({})], 85, read, null).verdict).toMatchObject({
      kind: 'drift',
      difference: -10,
    });
    expect(judgeDrift(seen, [], 150, read, null).verdict).toMatchObject({ kind: 'drift', difference: 50 });
    // Refused, not applied, not sent, free operations, and entries before the last read explain nothing.
    const nothing = [
      e({ outcome: 'rejected' }),
      e({ outcome: 'not applied' }),
      e({ outcome: 'not sent' }),
      e({ operation: 'delete', deducedCredits: null }),
      e({ time: at(T0 - 1000) }),
    ];
    expect(judgeDrift(seen, nothing, 100, read, null).verdict.kind).toBe('steady');
    // One operation counts once, from when it began, with its last outcome.
    const twice = [
      e({ opId: 'j:a', outcome: 'unknown', deducedCredits: null }),
      e({ opId: 'j:a', time: at(T0 + 2000) }),
    ];
    expect(judgeDrift(seen, twice, 95, read, null).verdict).toEqual({ kind: 'steady', explained: 5 });
  });

  it('a change in flight or unknown is never drift, and the last balance is kept for the next read', () => {
    expect(judgeDrift(seen, [], 80, read, 'a change is open')).toEqual({
      verdict: { kind: 'unsure', why: 'a change is open' },
      remember: null,
    });
    // An unknown outcome no change holds open any more (set aside): not drift; judged from here on.
    const unknown = judgeDrift(seen, [e({ outcome: 'unknown', deducedCredits: null })], 70, read, null);
    expect(unknown).toMatchObject({ verdict: { kind: 'unsure' }, remember: { balance: 70 } });
    // Journaled while the balance was read: it may or may not be in it.
    const during = judgeDrift(seen, [e({ time: at(read.from + 10) })], 95, read, null);
    expect(during).toMatchObject({ verdict: { kind: 'unsure' }, remember: null });
    // After the read: the next read's, not this one's.
    expect(judgeDrift(seen, [e({ time: at(read.to + 10) })], 100, read, null).verdict.kind).toBe('steady');
    // An applied charge never learnt: not drift, and judged from this balance on.
    const blind = judgeDrift(seen, [e({ deducedCredits: null })], 70, read, null);
    expect(blind).toMatchObject({ verdict: { kind: 'unsure' }, remember: { balance: 70 } });
  });

  it("this machine's charge under another key of the service (one account, two keys) is not drift", () => {
    const other = [e({ opId: 'k2:a' })];
    // Under this key nothing; under the other, 5: the fall of 5 is explained, judged from here.
    expect(judgeDrift(seen, [], 95, read, null, other)).toMatchObject({
      verdict: { kind: 'unsure' },
      remember: { balance: 95 },
    });
    // Journaled while the balance was read, in the balance: explained too.
    expect(judgeDrift(seen, [], 95, read, null, [e({ time: at(read.from + 10) })]).verdict.kind).toBe(
      'unsure',
    );
    // A move they do not explain to the credit is drift; another account's charge never hides one.
    expect(judgeDrift(seen, [], 90, read, null, other).verdict).toMatchObject({
      kind: 'drift',
      difference: -10,
    });
    expect(judgeDrift(seen, [], 100, read, null, other).verdict.kind).toBe('steady');
  });
});

/**
 * The runway kept current from what a change told (issue 27): applying a settled line to the runway's
 * lines gives what a fresh walk over the lines as they now are would give, over generated lines,
 * windows and changes; a walk is asked for only when the server's row is not known and the line may
 * be in the window (or the walk was capped), and a line outside the window before and after costs
 * nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import type { ChangeOp } from '../../src/domain/change-rules';
import { type RunwayRead, runwayLinesAfter } from '../../src/domain/runway';

const DAY = 86_400_000;
const AT = Date.UTC(2026, 10, 22, 12);

const line = (id: string, expMs: number | null, connections = 1, enabled = true): LineListItem =>
  ({
    id,
    username: `user-${id}`,
    connections,
    enabled,
    is_trial: false,
    exp_date: expMs === null ? null : { ms: expMs, raw: 'x' },
  }) as never;
const expOf = (l: LineListItem) => l.exp_date?.ms ?? null;

/** What a walk at `at` reads: the lines expiring within the window, soonest first, up to `cap`. */
function walk(all: readonly LineListItem[], at: number, days: number, cap: number) {
  const until = at + days * DAY;
  const inWindow = all
    .filter((l) => {
      const ms = expOf(l);
      return ms !== null && ms > at && ms <= until;
    })
    .sort((a, b) => expOf(a)! - expOf(b)! || a.id.localeCompare(b.id));
  return { lines: inWindow.slice(0, cap), capped: inWindow.length >= cap };
}
/** Equal expiries keep no promised order: compared by expiry, then id. */
const canonical = (ls: readonly LineListItem[]) =>
  [...ls].sort((a, b) => expOf(a)! - expOf(b)! || a.id.localeCompare(b.id)).map((l) => l.id);
const sortedByExpiry = (ls: readonly LineListItem[]) =>
  ls.every((l, i) => i === 0 || expOf(ls[i - 1]!)! <= expOf(l)!);

// Expiries around the window: expired, inside, on its edges, beyond; a few equal ones; some none.
const expiry = (days: number) =>
  fc.oneof(
    fc.constant(null),
    fc.integer({ min: -5, max: days + 10 }).map((d) => AT + d * DAY),
    fc.integer({ min: -5 * 24, max: (days + 10) * 24 }).map((h) => AT + h * 3_600_000),
    fc.constantFrom(AT, AT + days * DAY, AT + days * DAY + 1),
  );

const scenario = fc
  .record({ days: fc.integer({ min: 1, max: 40 }), cap: fc.integer({ min: 2, max: 12 }) })
  .chain(({ days, cap }) =>
    fc.record({
      days: fc.constant(days),
      cap: fc.constant(cap),
      all: fc.uniqueArray(
        fc.record({
          id: fc.integer({ min: 0, max: 40 }).map(String),
          exp: expiry(days),
          connections: fc.integer({ min: 1, max: 6 }),
          enabled: fc.boolean(),
        }),
        { selector: (x) => x.id, maxLength: 25 },
      ),
      op: fc.constantFrom<ChangeOp>('extend', 'upgrade', 'delete', 'create', 'trial', 'unsuspend'),
      pick: fc.nat(),
      newExp: expiry(days),
      laterBy: fc.integer({ min: 0, max: 60 * DAY }),
      connections: fc.integer({ min: 1, max: 6 }),
      known: fc.boolean(),
    }),
  );

describe('runwayLinesAfter', () => {
  it('equals a fresh walk over the changed lines, or asks for one only when it must', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const all = s.all.map((x) => line(x.id, x.exp, x.connections, x.enabled));
        const creates = s.op === 'create' || s.op === 'trial';
        if (!creates && all.length === 0) return;
        const target = creates ? null : all[s.pick % all.length]!;
        const before = target ? expOf(target) : null;
        // The line as the server has it after the change (each op as the API describes it).
        let after: LineListItem | null;
        if (s.op === 'delete') after = null;
        else if (creates) after = line('new', s.newExp, s.connections);
        else if (s.op === 'extend')
          after = line(target!.id, before === null ? s.newExp : before + s.laterBy, target!.connections);
        else if (s.op === 'upgrade') after = line(target!.id, before, s.connections, target!.enabled);
        else after = line(target!.id, before, target!.connections, true);
        const now = [...all.filter((l) => l.id !== target?.id), ...(after ? [after] : [])];

        const read: RunwayRead = { at: AT, days: s.days, ...walk(all, AT, s.days, s.cap) };
        const told = s.op === 'delete' || s.known ? after : undefined;
        const id = target?.id ?? 'new';
        const got = runwayLinesAfter(read, { id, op: s.op, beforeExpMs: before, after: told }, s.cap);

        const fresh = walk(now, AT, s.days, s.cap);
        const until = AT + s.days * DAY;
        const inside = (ms: number | null) => ms !== null && ms > AT && ms <= until;
        const wasIn = read.lines.some((l) => l.id === id);
        const isIn = after !== null && inside(expOf(after));
        if (got === null) {
          // A walk only when the local rule cannot know: an unknown row, or a capped walk.
          expect(told === undefined || read.capped || fresh.capped).toBe(true);
          // Outside before and after, with the row known: never a walk.
          if (told !== undefined) expect(wasIn || isIn).toBe(true);
          return;
        }
        expect(canonical(got)).toEqual(canonical(fresh.lines));
        // The walk's capped flag is kept (services/runway.ts): it must be the fresh walk's.
        expect(fresh.capped).toBe(read.capped);
        expect(sortedByExpiry(got)).toBe(true);
        // What it keeps of the changed line is the server's row.
        if (isIn) expect(got.find((l) => l.id === id)).toBe(after);
        // Outside the window before and after: nothing changes (the same array: no store update).
        if (!wasIn && !isIn) expect(got).toBe(read.lines);
      }),
      { numRuns: 3000 },
    );
  });

  it('a single extend of a line far outside the window costs nothing, row known or not', () => {
    const lines = [line('a', AT + 3 * DAY), line('b', AT + 20 * DAY)];
    const read: RunwayRead = { lines, at: AT, days: 30, capped: false };
    const far = AT + 200 * DAY;
    for (const after of [line('z', far + 30 * DAY), undefined])
      expect(runwayLinesAfter(read, { id: 'z', op: 'extend', beforeExpMs: far, after }, 1000)).toBe(lines);
  });

  it('an extend that moves a line out of the window drops it; an upgrade re-prices it in place', () => {
    const a = line('a', AT + 3 * DAY);
    const b = line('b', AT + 20 * DAY);
    const read: RunwayRead = { lines: [a, b], at: AT, days: 30, capped: false };
    const out = runwayLinesAfter(
      read,
      { id: 'a', op: 'extend', beforeExpMs: AT + 3 * DAY, after: line('a', AT + 33 * DAY) },
      1000,
    );
    expect(out?.map((l) => l.id)).toEqual(['b']);
    const up = line('b', AT + 20 * DAY, 3);
    const upgraded = runwayLinesAfter(
      read,
      { id: 'b', op: 'upgrade', beforeExpMs: AT + 20 * DAY, after: up },
      1000,
    );
    expect(upgraded).toEqual([a, up]);
    // Its row unknown, a line in the runway needs a walk.
    expect(
      runwayLinesAfter(read, { id: 'b', op: 'upgrade', beforeExpMs: AT + 20 * DAY, after: undefined }, 1000),
    ).toBe(null);
  });
});

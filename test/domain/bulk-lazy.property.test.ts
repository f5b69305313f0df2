/**
 * The bulk preview's lines made when read (domain/bulk.ts `lazyLines`) read as the array they stand
 * for: what the preview draws and counts, what a plan (`planLines`) makes of them, what a job that runs is given.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  affordability,
  type BulkLine,
  deletedPaidTimeText,
  lazyLines,
  madeLines,
  pendingCounts,
  planKind,
  planLine,
  planLines,
  progressOf,
  toBulkLine,
} from '../../src/domain/bulk';

const NOW = Date.UTC(2026, 10, 28);
type Data = { cost: number | null; trial: boolean; exp: number | null; skipped: boolean };
/** As a line is when the job opens: not planned. */
const unplanned = (i: number, d: Data) =>
  toBulkLine({
    id: String(i + 1),
    hostname: null,
    username: `user${i}`,
    password: 'secret',
    label: '',
    enabled: true,
    connections: 2,
    is_trial: d.trial,
    exp_date: d.exp === null ? null : { raw: new Date(d.exp).toISOString(), ms: d.exp },
    start_date: null,
    created_at: null,
  });
const line = (i: number, d: Data) => ({
  ...unplanned(i, d),
  cost: d.cost,
  state: d.skipped ? ('skipped' as const) : ('pending' as const),
});
const data = fc.array(
  fc.record({
    cost: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 5 })),
    trial: fc.boolean(),
    exp: fc.oneof(fc.constant(null), fc.integer({ min: NOW - 1e10, max: NOW + 1e10 })),
    skipped: fc.boolean(),
  }),
  { maxLength: 40 },
);

describe('lines made when read', () => {
  it('read, count, plan and run as the array they stand for', () => {
    fc.assert(
      fc.property(data, fc.integer({ min: 0, max: 100 }), fc.nat(50), fc.nat(50), (ds, balance, a, b) => {
        const real: BulkLine[] = ds.map((d, i) => line(i, d));
        const ids = real.map((l) => l.id);
        const lazy = lazyLines(
          real.length,
          (i) => line(i, ds[i]!),
          (id) => ids.indexOf(id),
        );
        const plain = lazyLines(real.length, (i) => line(i, ds[i]!));
        const opened = ds.map((d, i) => unplanned(i, d));
        expect(progressOf({ lines: opened } as never, 0)).toEqual({
          done: 0,
          failed: 0,
          unknown: 0,
          remaining: ds.length,
          skipped: 0,
          cancelled: 0,
          credits: 0,
          chargeUnknown: 0,
          ratePerSec: 0,
          etaSec: null,
        });
        for (const lines of [lazy, plain]) {
          expect(Array.isArray(lines)).toBe(true);
          expect(lines.length).toBe(real.length);
          expect([...lines]).toEqual(real);
          expect(lines.slice(a, a + b)).toEqual(real.slice(a, a + b));
          expect(lines.filter((l) => l.state === 'skipped')).toEqual(
            real.filter((l) => l.state === 'skipped'),
          );
          expect(JSON.stringify(lines)).toBe(JSON.stringify(real));
          expect(pendingCounts(lines)).toEqual(pendingCounts(real));
          expect(progressOf({ lines } as never, 0)).toEqual(progressOf({ lines: real } as never, 0));
          expect(progressOf({ lines } as never, 1000, 1)).toEqual(
            progressOf({ lines: real } as never, 1000, 1),
          );
          expect(deletedPaidTimeText(lines, NOW)).toBe(deletedPaidTimeText(real, NOW));
          const x = affordability(lines, balance);
          const y = affordability(real, balance);
          expect({ ...x, affordable: x.affordable.size }).toEqual({ ...y, affordable: y.affordable.size });
          for (const id of [...ids, 'none']) expect(x.affordable.has(id)).toBe(y.affordable.has(id));
          const plan = (l: BulkLine) => planLine(l, 'extend', { months: 1, connections: 2 }, [], NOW);
          // Planned as the app plans (`planLines`): by kind, made when read.
          const planned = planLines(lines, planKind, plan);
          expect([...planned]).toEqual(real.map(plan));
          const made = madeLines(planned);
          expect(made).toEqual(real.map(plan));
          // Made once: the same objects at each read, as the engine expects of an array.
          expect(made[0]).toBe(made[0]);
          expect(() => {
            (lines as BulkLine[])[0] = real[0]!;
          }).toThrow();
        }
      }),
      { numRuns: 200 },
    );
  });
});

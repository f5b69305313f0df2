/**
 * One counting rule over a job's lines (domain/bulk.ts): what the preview counts (`pendingCounts`)
 * and where a running job stands (`progressOf`) read the same lines the same way, for lines as an
 * array and for lines made when read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BulkLine,
  type BulkLineState,
  lazyLines,
  pendingCounts,
  progressOf,
} from '../../src/domain/bulk';

const STATES: readonly BulkLineState[] = [
  'pending',
  'sending',
  'done',
  'failed',
  'unknown',
  'skipped',
  'cancelled',
];
const lineData = fc.record({
  state: fc.constantFrom(...STATES),
  cost: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 9 })),
  deducedCredits: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
  charge: fc.option(fc.constantFrom('reply', 'balance', 'share', 'unknown' as const), { nil: undefined }),
});
const toLine = (d: object, i: number) =>
  ({ id: String(i), username: `u${i}`, before: {}, after: {}, ...d }) as unknown as BulkLine;

describe('counting a job’s lines', () => {
  it('the preview’s counts and the progress are one count of the same lines', () => {
    fc.assert(
      fc.property(fc.array(lineData, { maxLength: 30 }), (ds) => {
        const real = ds.map(toLine);
        const made = lazyLines(real.length, (i) => toLine(ds[i]!, i));
        const n = (f: (l: BulkLine) => boolean) => real.filter(f).length;
        const sum = (f: (l: BulkLine) => number) => real.reduce((a, l) => a + f(l), 0);
        for (const lines of [real, made]) {
          expect(pendingCounts(lines)).toEqual({
            pending: n((l) => l.state === 'pending'),
            costUnknown: n((l) => l.state === 'pending' && l.cost === null),
            costSum: sum((l) => l.cost ?? 0),
          });
          const p = progressOf({ lines } as never, 0);
          expect(p).toMatchObject({
            done: n((l) => l.state === 'done'),
            failed: n((l) => l.state === 'failed'),
            unknown: n((l) => l.state === 'unknown'),
            remaining: n((l) => l.state === 'pending' || l.state === 'sending'),
            skipped: n((l) => l.state === 'skipped'),
            cancelled: n((l) => l.state === 'cancelled'),
            credits: sum((l) => l.deducedCredits ?? 0),
            chargeUnknown: n((l) => l.state === 'done' && l.charge === 'unknown'),
          });
          // Every line is counted once, in one state.
          expect(p.done + p.failed + p.unknown + p.remaining + p.skipped + p.cancelled).toBe(real.length);
          expect(p.remaining).toBeGreaterThanOrEqual(pendingCounts(lines).pending);
        }
      }),
      { numRuns: 200 },
    );
  });
});

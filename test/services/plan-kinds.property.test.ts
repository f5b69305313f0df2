/**
 * A job planned from lines made when read is counted by line kind (services/changes/quote.ts
 * `planJob`, domain/bulk.ts `planLines`): for every op, every mix of trials, suspended lines,
 * connections, deduced credits and lines with an open change, what it counts (the total shown, the
 * progress, the affordable ones) is what the same lines made one by one and counted afresh say: what
 * the job, given the lines made, will send and charge.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Package } from '../../src/api/contract';
import {
  affordability,
  type BulkJob,
  type BulkOp,
  lazyLines,
  madeLines,
  pendingCounts,
  pendingPlaces,
  progressOf,
  toBulkLine,
} from '../../src/domain/bulk';
import { planJob } from '../../src/services/changes/quote';

const NOW = Date.UTC(2026, 10, 28);
const packages: Package[] = [1, 3].map((duration, i) => ({
  id: i + 1,
  package_name: `p${duration}`,
  duration,
  is_trial: false,
  credits_cost: 10 * duration,
  extra_connection_credits_cost: 3 * duration,
  min_balance: 0,
}));

const kindOf = fc.record({
  trial: fc.boolean(),
  enabled: fc.boolean(),
  connections: fc.integer({ min: 1, max: 6 }),
  open: fc.boolean(),
  held: fc.boolean(),
  deduced: fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
});

describe('a job planned by line kind', () => {
  it('counts what the lines made count, for every op and kind', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<BulkOp>('extend', 'upgrade', 'unsuspend', 'delete'),
        fc.array(kindOf, { minLength: 1, maxLength: 30 }),
        fc.constantFrom<1 | 3 | 6>(1, 3, 6),
        fc.integer({ min: 1, max: 6 }),
        (op, kinds, months, connections) => {
          const base = kinds.map((k, i) => ({
            ...toBulkLine({
              id: `id${i}`,
              hostname: null,
              username: `user${i}`,
              password: 'secret',
              label: '',
              enabled: k.enabled,
              connections: k.connections,
              is_trial: k.trial,
              exp_date: { raw: new Date(NOW + i * 86_400_000).toISOString(), ms: NOW + i * 86_400_000 },
              start_date: null,
              created_at: null,
            }),
            ...(k.deduced === undefined ? {} : { deducedCredits: k.deduced }),
          }));
          const unsettled = new Map(kinds.flatMap((k, i) => (k.open ? [[`id${i}`, 'job-1'] as const] : [])));
          const held = new Map(
            kinds.flatMap((k, i) => (k.open && k.held ? [[`id${i}`, 'another linedesk'] as const] : [])),
          );
          const job: BulkJob = {
            id: 'j',
            op,
            months,
            connections,
            target: 't',
            createdAt: new Date(NOW).toISOString(),
            lines: lazyLines(base.length, (i) => base[i]!),
          };
          // Planned once with no open change, then again from those planned lines (a key in the
          // preview) with the open changes now: the kinds are read again for the new open set.
          const first = planJob(job, packages, { unsettled: new Map(), held: new Map() }, NOW);
          const lines = planJob({ ...job, lines: first }, packages, { unsettled, held }, NOW);
          const made = [...madeLines(lines)];
          expect(made.filter((l) => l.heldBack).map((l) => l.id)).toEqual([...unsettled.keys()]);
          expect(made).toHaveLength(base.length);
          expect(pendingCounts(lines)).toEqual(pendingCounts(made));
          expect(progressOf({ ...job, lines }, 0)).toEqual(progressOf({ ...job, lines: made }, 0));
          expect(pendingPlaces(lines)).toEqual(pendingPlaces(made));
          for (const balance of [0, 10, 45, 200, 10_000]) {
            const a = affordability(lines, balance);
            const b = affordability(made, balance);
            expect({ ...a, affordable: made.filter((l) => a.affordable.has(l.id)).map((l) => l.id) }).toEqual(
              {
                ...b,
                affordable: made.filter((l) => b.affordable.has(l.id)).map((l) => l.id),
              },
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

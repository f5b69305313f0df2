/**
 * A job planned from lines made when read is counted by line kind (services/changes/quote.ts
 * `planJob`, domain/bulk.ts `planLines`): for every op, every mix of trials, suspended lines,
 * connections, deduced credits and lines with an open change, what it counts (the total shown, the
 * progress, the affordable ones) is what the same lines made one by one and counted afresh say: what
 * the job, given the lines made, will send and charge. So too once an upgrade's quotes are in (a
 * quote is the server's, per line: `quoteUpgrades`), and for the plan the next key makes from them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Package } from '../../src/api/contract';
import {
  affordability,
  type BulkJob,
  type BulkLine,
  type BulkOp,
  lazyLines,
  madeLines,
  pendingCounts,
  pendingPlaces,
  progressOf,
  toBulkLine,
} from '../../src/domain/bulk';
import { planJob, quoteUpgrades } from '../../src/services/changes/quote';
import type { ServiceClient } from '../../src/services/client';

const NOW = Date.UTC(2026, 10, 28);
// Prices in tenths of a credit (the API's are numbers): a total is the lines' costs added in turn,
// as a count of the lines made adds them, never a price times a count (0.1 × 10 is 1; added, not).
const packages: Package[] = [1, 3].map((duration, i) => ({
  id: i + 1,
  package_name: `p${duration}`,
  duration,
  is_trial: false,
  credits_cost: 0.1 * duration,
  extra_connection_credits_cost: 0.3 * duration,
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

type Kind = typeof kindOf extends fc.Arbitrary<infer K> ? K : never;

/** Lines of these kinds, and the open set they make (lines with an open change, some held elsewhere). */
function linesOf(kinds: readonly Kind[]) {
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
  return { base, unsettled, held };
}

/** What a lines array counts, and the same lines made one by one and counted afresh. */
function countedAsMade(job: BulkJob, lines: readonly BulkLine[]) {
  const made = [...madeLines(lines)];
  expect(made).toHaveLength(job.lines.length);
  expect(pendingCounts(lines)).toEqual(pendingCounts(made));
  expect(progressOf({ ...job, lines }, 0)).toEqual(progressOf({ ...job, lines: made }, 0));
  expect(pendingPlaces(lines)).toEqual(pendingPlaces(made));
  for (const balance of [0, 1, 4.5, 20, 1_000]) {
    const a = affordability(lines, balance);
    const b = affordability(made, balance);
    expect({ ...a, affordable: made.filter((l) => a.affordable.has(l.id)).map((l) => l.id) }).toEqual({
      ...b,
      affordable: made.filter((l) => b.affordable.has(l.id)).map((l) => l.id),
    });
  }
  return made;
}

describe('a job planned by line kind', () => {
  it('counts what the lines made count, for every op and kind', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<BulkOp>('extend', 'upgrade', 'unsuspend', 'delete'),
        fc.array(kindOf, { minLength: 1, maxLength: 30 }),
        fc.constantFrom<1 | 3 | 6>(1, 3, 6),
        fc.integer({ min: 1, max: 6 }),
        (op, kinds, months, connections) => {
          const { base, unsettled, held } = linesOf(kinds);
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
          const made = countedAsMade(job, lines);
          expect(made.filter((l) => l.heldBack).map((l) => l.id)).toEqual([...unsettled.keys()]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('planned again, is the plan of the lines given first: a line held back before is not held back now', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<BulkOp>('extend', 'upgrade', 'unsuspend', 'delete'),
        fc.array(kindOf, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        (op, kinds, plain) => {
          const { base, unsettled, held } = linesOf(kinds);
          // Given as they are (a retry's lines) or made when read (the marks'): planned alike.
          const given = plain ? base : lazyLines(base.length, (i) => base[i]!);
          const job: BulkJob = {
            id: 'j',
            op,
            months: 1,
            connections: 2,
            target: 't',
            createdAt: new Date(NOW).toISOString(),
            lines: given,
          };
          const none = { unsettled: new Map(), held: new Map() };
          // The open changes settle while the preview shows them held back; then a key plans again.
          const first = planJob(job, packages, { unsettled, held }, NOW);
          const again = planJob({ ...job, lines: first }, packages, none, NOW);
          expect([...madeLines(again)]).toEqual([...madeLines(planJob(job, packages, none, NOW))]);
          expect([...madeLines(again)].filter((l) => l.heldBack)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('quoted, counts what the lines made count; quoting makes each line it asks of once, the next key none', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(kindOf, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }), { minLength: 30, maxLength: 30 }),
        async (kinds, connections, next, prices) => {
          const { base, unsettled, held } = linesOf(kinds);
          let made = 0;
          const job: BulkJob = {
            id: 'j',
            op: 'upgrade',
            months: 1,
            connections,
            target: 't',
            createdAt: new Date(NOW).toISOString(),
            lines: lazyLines(base.length, (i) => {
              made++;
              return base[i]!;
            }),
          };
          // The server's price of a line (null: it gives none), per line and connections: tenths too.
          const price = (id: string, n: number) => {
            const p = prices[Number(id.slice(2))]!;
            return p === null ? null : p / 10 + n / 10;
          };
          const client = {
            simulateUpgrade: async ({ id, new_connections }: { id: string; new_connections: number }) => {
              const cost = price(id, new_connections);
              if (cost === null) throw new Error('no price');
              return { cost };
            },
          } as unknown as ServiceClient;
          const open = { unsettled, held };
          const planned = planJob(job, packages, open, NOW);
          const asked = pendingPlaces(planned).length;
          made = 0;
          const quoted = await quoteUpgrades(client, planned, connections);
          // Each line asked of is made once, and no other.
          expect(made).toBe(asked);
          const lines = countedAsMade(job, quoted);
          for (const l of lines.filter((l) => l.state === 'pending'))
            expect([l.cost, l.detail]).toEqual(
              price(l.id, connections) === null ? [null, 'no quote'] : [price(l.id, connections), undefined],
            );
          // Made when read, as the plan was: a screenful drawn makes a screenful.
          made = 0;
          void quoted[0];
          expect(made).toBe(1);
          // The next key plans again by kind, from the lines the plan was made from: no line made.
          made = 0;
          const again = planJob({ ...job, connections: next, lines: quoted }, packages, open, NOW);
          expect(made).toBe(0);
          void again[0];
          expect(made).toBe(1);
          const replanned = countedAsMade(job, again);
          expect(
            replanned.filter((l) => l.state === 'pending').map((l) => [l.cost, l.after.connections]),
          ).toEqual(replanned.filter((l) => l.state === 'pending').map(() => [null, next]));
        },
      ),
      { numRuns: 200 },
    );
  });
});

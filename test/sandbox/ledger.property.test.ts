import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { LinedeskError } from '../../src/api/errors';
import { books, sandbox } from '../helpers/sandbox';

type Op =
  | { kind: 'create'; duration: 1 | 3 | 6 | 12; connections: number }
  | { kind: 'trial'; duration: 12 | 24 | 48 }
  | { kind: 'extend'; pick: number; duration: 1 | 3 | 6 | 12 }
  | { kind: 'upgrade'; pick: number; to: number }
  | { kind: 'unsuspend'; pick: number }
  | { kind: 'delete'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    duration: fc.constantFrom(1, 3, 6, 12 as const),
    connections: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('trial' as const), duration: fc.constantFrom(12, 24, 48 as const) }),
  fc.record({
    kind: fc.constant('extend' as const),
    pick: fc.nat(),
    duration: fc.constantFrom(1, 3, 6, 12 as const),
  }),
  fc.record({ kind: fc.constant('upgrade' as const), pick: fc.nat(), to: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('unsuspend' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

interface Outcome {
  readonly charged: number | null; // deducedCredits of a 2xx
  readonly quote: number | null;
  readonly failure: LinedeskError | null;
}

const target = (ids: readonly string[], op: Op) =>
  op.kind === 'create' || op.kind === 'trial' || !ids.length ? undefined : ids[op.pick % ids.length];

/** A quote binds only "at that moment": ops racing on the same line may see each other's change. */
function alone(ids: readonly string[], batch: readonly Op[]): boolean[] {
  const targets = batch.map((op) => target(ids, op));
  return targets.map((t) => t === undefined || targets.filter((x) => x === t).length === 1);
}

async function run(client: ApiClient, ids: string[], op: Op): Promise<Outcome> {
  const id = target(ids, op);
  try {
    switch (op.kind) {
      case 'create': {
        const body = { duration: op.duration, connections: op.connections };
        const quote = (await client.simulateCreate(body)).cost;
        const r = await client.createLine(body);
        ids.push(r.line!.id);
        return { charged: r.deducedCredits, quote, failure: null };
      }
      case 'trial': {
        const quote = (await client.simulateTrial({ duration: op.duration })).cost;
        const r = await client.createTrial({ duration: op.duration });
        return { charged: r.deducedCredits, quote, failure: null };
      }
      case 'extend':
        return {
          charged: (await client.extendLine({ id: id!, duration: op.duration })).deducedCredits,
          quote: null,
          failure: null,
        };
      case 'upgrade': {
        const quote = (await client.simulateUpgrade({ id: id!, new_connections: op.to })).cost;
        return {
          charged: (await client.upgradeLine({ id: id!, new_connections: op.to })).deducedCredits,
          quote,
          failure: null,
        };
      }
      case 'unsuspend':
        await client.unsuspendLine({ id: id! });
        return { charged: 0, quote: 0, failure: null };
      case 'delete':
        await client.deleteLine({ id: id! });
        ids.splice(ids.indexOf(id!), 1);
        return { charged: 0, quote: 0, failure: null };
    }
  } catch (e) {
    return { charged: null, quote: null, failure: e as LinedeskError };
  }
}

const batches = fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 });

describe('ledger (model-based, some operations concurrent)', () => {
  it('without faults: every charge equals its quote, the books balance, nothing charged on a non-2xx', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.integer({ min: 0, max: 60 }), async (plan, credits) => {
        const { sb, client } = await sandbox({ credits, lines: 12 });
        const ids = (await client.listLines({ limit: 100 })).lines
          .filter((l) => !l.is_trial)
          .map((l) => l.id);
        let charged = 0;
        let successes = 0;
        for (const batch of plan) {
          const solo = alone(ids, batch);
          const outcomes = await Promise.all(batch.map((op) => run(client, ids, op)));
          for (const [i, o] of outcomes.entries()) {
            if (o.failure) expect(o.failure.outcome).not.toBe('unknown');
            if (o.charged !== null) {
              if (o.quote !== null && solo[i]) expect(o.charged).toBe(o.quote);
              charged += o.charged;
              if (o.charged > 0) successes++;
            }
          }
          const b = books(sb);
          expect(b.balance).toBeGreaterThanOrEqual(0);
          expect(b.opening - b.spent).toBe(b.balance);
        }
        const b = books(sb);
        expect(b.spent).toBe(charged);
        expect(b.ledger).toHaveLength(successes);
        expect((await client.me()).credits).toBe(b.balance);
      }),
      { numRuns: 25 },
    );
  });

  it('with faults (resets before and after applying, 500s, malformed bodies): the books still balance', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.integer({ min: 1, max: 1000 }), async (plan, seed) => {
        const { sb, client } = await sandbox({ credits: 40, lines: 12 });
        sb.faults.set(`resetBefore=0.15,resetAfter=0.15,error500=0.1,malformed=0.05,seed=${seed}`);
        const ids = (await client.listLines({ limit: 100 }).catch(() => ({ lines: [] }))).lines.map(
          (l) => l.id,
        );
        let known = 0;
        let unknown = 0;
        for (const batch of plan) {
          const outcomes = await Promise.all(batch.map((op) => run(client, ids, op)));
          for (const o of outcomes) {
            if (o.charged !== null && o.charged > 0) known++;
            if (o.failure?.outcome === 'unknown') unknown++;
          }
          const b = books(sb);
          expect(b.balance).toBeGreaterThanOrEqual(0);
          expect(b.opening - b.spent).toBe(b.balance);
        }
        // Every ledger row is a known success or an unknown outcome; a rejection charged nothing.
        const rows = books(sb).ledger.length;
        expect(rows).toBeGreaterThanOrEqual(known);
        expect(rows).toBeLessThanOrEqual(known + unknown);
      }),
      { numRuns: 20 },
    );
  });
});

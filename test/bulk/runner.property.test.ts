import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { type BulkJob, type BulkLine, planLine, toBulkLine } from '../../src/domain/bulk';
import { runJob } from '../../src/services/changes/engine';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

describe('bulk runner under faults', () => {
  it('every line charged at most once, the ledger consistent, no line left unknown', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 1, max: 10_000 }),
          resetBefore: fc.constantFrom(0, 0.1, 0.2),
          resetAfter: fc.constantFrom(0, 0.1, 0.2),
          error500: fc.constantFrom(0, 0.1),
          error429: fc.constantFrom(0, 0.15),
          concurrency: fc.integer({ min: 1, max: 6 }),
          op: fc.constantFrom('extend' as const, 'upgrade' as const),
        }),
        async (f) => {
          const { sb } = await sandbox({ lines: 24, credits: 100_000 });
          // Retry-After clamped to a few ms: the test exercises the rules, not the clock.
          const client = createClient({
            baseUrl: sb.baseUrl,
            apiKey: DEMO_KEY,
            retry: { maxAttempts: 8, baseDelayMs: 2, maxDelayMs: 10, maxRetryAfterMs: 5 },
          });
          const lines = (await client.listLines({ limit: 100, type: 'premium' })).lines;
          const packages = (await client.packages()).packages;
          const job: BulkJob = {
            id: 'job',
            op: f.op,
            months: 1,
            connections: 6,
            target: 'test',
            createdAt: new Date().toISOString(),
            lines: lines.map((l) =>
              planLine(toBulkLine(l), f.op, { months: 1, connections: 6 }, packages, Date.now()),
            ),
          };
          // Upgrades are quoted by the server before they start, as the app does.
          for (const [i, l] of job.lines.entries())
            if (l.state === 'pending' && l.cost === null)
              (job.lines as BulkLine[])[i] = {
                ...l,
                cost: (await client.simulateUpgrade({ id: l.id, new_connections: 6 })).cost,
              };
          const balanceBefore = (await client.me()).credits;
          sb.faults.set(
            `resetBefore=${f.resetBefore},resetAfter=${f.resetAfter},error500=${f.error500},error429=${f.error429},seed=${f.seed}`,
          );
          const final = await runJob(
            { ...job, balanceBefore },
            {
              client,
              concurrency: f.concurrency,
              onLine: () => {},
              cancelled: () => false,
              // The sandbox applies a request at once or never: its hold window is nothing.
              holdMs: 0,
              retry: { maxDelayMs: 10, maxRetryAfterMs: 5 },
              sleep: (ms: number) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
            },
          );
          sb.faults.set('');
          await client.close();
          const b = books(sb);
          // at most one charge per line
          const perLine = new Map<string, number>();
          for (const r of b.ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
          for (const n of perLine.values()) expect(n).toBe(1);
          // the books balance, and every line the runner calls done was charged (or cost nothing)
          expect(b.opening - b.spent).toBe(b.balance);
          for (const l of final.lines) {
            expect(['done', 'failed', 'skipped']).toContain(l.state);
            if (l.state === 'done' && (l.cost ?? 1) > 0 && f.op === 'extend')
              expect(perLine.get(l.id)).toBe(1);
            if (l.state === 'failed') expect(perLine.has(l.id)).toBe(false);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 90_000);
});

/**
 * The bulk preview's months and connections keys on lines from the marks: a key counts the plan by
 * line kind (domain/bulk.ts `planLines`) instead of making and planning every line again. What it
 * counts must be what a full recount of the lines made says, after any sequence of keys, and the
 * start key must never meet new values with the old plan's total.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { affordability, type BulkLine, madeLines, pendingCounts, progressOf } from '../../src/domain/bulk';
import { RULES } from '../../src/domain/change-rules';
import { extendEstimate } from '../../src/domain/estimate';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { validateJob } from '../../src/services/changes/validate';
import type { AppState } from '../../src/store/app-store';
import { bulkBlocker } from '../../src/store/bulk-slice';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { books } from '../helpers/sandbox';
import { until } from '../helpers/wait';

const NOW = Date.now();

/** The lines of a state's preview not planned for its values (months, connections), in words. */
function plannedOtherwise(st: AppState, made: readonly BulkLine[]): string[] {
  const job = st.bulk!.job;
  const packages = loaded(st.packages) ?? [];
  return made
    .filter((l) => l.state === 'pending')
    .filter((l) =>
      job.op === 'extend'
        ? l.cost !== (extendEstimate(packages, job.months, l.before.connections)?.cost ?? null)
        : l.after.connections !== job.connections,
    )
    .map((l) => `${l.username}: ${l.cost} for ${job.months} months, ${l.after.connections} connections`);
}

async function markedStore() {
  const env = await storeOnSandbox(
    { lines: 40, credits: 100_000 },
    { intents: memoryIntentLog(), journal: memoryJournal(), now: () => NOW },
  );
  const s = () => env.store.getState();
  await s().loadAccount();
  await s().loadCatalog();
  await s().loadLines();
  await s().markAllMatching();
  expect(s().marked.size).toBe(40);
  return { ...env, s };
}

/** The preview's counts, and those of the same lines made one by one and counted afresh. */
function countsNowAndRecounted(
  b: NonNullable<ReturnType<Awaited<ReturnType<typeof markedStore>>['s']>['bulk']>,
) {
  const made = madeLines(b.job.lines);
  const balances = [0, 7, 100, 1_000, 100_000];
  const of = (lines: typeof made) => {
    const job = { ...b.job, lines };
    return {
      counts: { ...pendingCounts(lines) },
      progress: progressOf(job, 0),
      refusals: balances.map((balance) => validateJob(job, { balance })?.code ?? null),
      afford: balances.map((balance) => {
        const a = affordability(lines, balance);
        return {
          total: a.total,
          spent: a.spent,
          size: a.affordable.size,
          fitsAll: a.fitsAll,
          considered: a.considered,
          taken: made.filter((l) => a.affordable.has(l.id)).map((l) => l.id),
        };
      }),
    };
  };
  return { now: of(b.job.lines), recounted: of([...made]), made };
}

describe('the bulk preview adjusted from the marks', () => {
  it('counts after any keys what a full recount of the lines made counts', async () => {
    const env = await markedStore();
    const { s } = env;
    // The marks hold more than one kind of line (trials, connections): else kinds prove nothing.
    const kinds = new Set([...s().marked.lines()].map((l) => `${l.is_trial}:${l.connections}:${l.enabled}`));
    expect(kinds.size).toBeGreaterThan(2);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('extend' as const, 'upgrade' as const),
        fc.array(fc.constantFrom(1 as const, -1 as const), { minLength: 1, maxLength: 14 }),
        async (op, keys) => {
          s().openBulk(op);
          for (const delta of keys) {
            s().bulkAdjust(delta);
            const b = s().bulk!;
            const { now, recounted, made } = countsNowAndRecounted(b);
            expect(now).toEqual(recounted);
            // The total shown is the sum of what the lines made (those the job runs) will charge.
            expect(now.counts.costSum).toBe(made.reduce((n, l) => n + (l.cost ?? 0), 0));
            // The plan is of the values now: every line planned for them.
            expect(plannedOtherwise(s(), made)).toEqual([]);
          }
          s().bulkClose();
        },
      ),
      { numRuns: 25 },
    );
  });

  it("an upgrade's quotes in, it counts what its lines made count, and so does the plan of the next key", async () => {
    const { s } = await markedStore();
    s().openBulk('upgrade', undefined, { connections: 2 });
    for (const delta of [1, 1, -1] as const) {
      await until(() => s().bulk?.quoting === false);
      const b = s().bulk!;
      const { now, recounted, made } = countsNowAndRecounted(b);
      expect(now).toEqual(recounted);
      // Every line to send has the server's quote.
      const toSend = made.filter((l) => l.state === 'pending');
      expect(toSend.length).toBeGreaterThan(0);
      expect(toSend.filter((l) => l.cost === null)).toEqual([]);
      s().bulkAdjust(delta);
      const next = countsNowAndRecounted(s().bulk!);
      expect(next.now).toEqual(next.recounted);
      expect(plannedOtherwise(s(), next.made)).toEqual([]);
    }
    await until(() => s().bulk?.quoting === false);
    s().bulkClose();
  });

  it('never shows new values with the old plan: a start right after a key is judged by the new total', async () => {
    const env = await markedStore();
    const { s, sb } = env;
    s().openBulk('extend', undefined, { months: 1 });
    const one = pendingCounts(s().bulk!.job.lines).costSum;
    s().bulkAdjust(1);
    const more = pendingCounts(s().bulk!.job.lines).costSum;
    expect(more).toBeGreaterThan(one);
    s().bulkAdjust(-1);
    // A balance that pays for the first months, not for more.
    sb.repo.db.prepare("UPDATE accounts SET credits = ? WHERE email = 'demo@sandbox.linedesk'").run(one);
    await s().loadAccount();
    expect(loaded(s().account)!.credits).toBe(one);
    expect(bulkBlocker(s().bulk!, one)).toBeNull();
    // Every state a key leaves (each one a frame, or the state a key is judged by) has the plan of its values.
    const seen: string[] = [];
    const off = env.store.subscribe((st) => {
      if (st.bulk?.phase !== 'preview') return;
      const made = madeLines(st.bulk.job.lines);
      seen.push(...plannedOtherwise(st, made));
      if (pendingCounts(st.bulk.job.lines).costSum !== made.reduce((n, l) => n + (l.cost ?? 0), 0))
        seen.push(`months ${st.bulk.job.months}: a total not of its lines`);
    });
    s().bulkAdjust(1);
    const start = s().bulkStart();
    off();
    await start;
    expect(seen).toEqual([]);
    expect(s().bulk!.phase).toBe('preview');
    expect(bulkBlocker(s().bulk!, one)).toBe(RULES.totalExceeds);
    expect(books(sb).ledger).toEqual([]);
  });
});

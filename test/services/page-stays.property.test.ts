/**
 * `pageStaysAfter` (derived from `passesFilters` and the sort keys) against the server: for random
 * views (status, type, order, direction, search) and a random change of a line on the first page,
 * whenever the rule says the page stays, the page read again after the change is the page as it was
 * with that line's row replaced in place: the same lines in the same order. Run on the sandbox over
 * HTTP; a change the server refuses (a trial, no credits) proves nothing and is passed over.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINE_TYPES, ORDER_BY } from '../../src/api/contract/choices';
import { linesPager, pageStaysAfter, STATUS_VIEWS } from '../../src/services/lines-query';
import { sandbox } from '../helpers/sandbox';

describe('pageStaysAfter against reading the page again', () => {
  it('a page it keeps is the page the server lists after the change', async () => {
    const { sb, client } = await sandbox({ lines: 40 });
    // More suspended lines than the seed has (through the repo, whose list cache a write empties):
    // each run may unsuspend one.
    const resuspend = async () => {
      const { lines } = await client.listLines({ offset: 0, limit: 100, status: 'all', type: 'all' });
      for (const [i, l] of lines.entries()) if (i % 3 === 0) sb.repo.updateLine(l.id, { enabled: 0 });
    };
    await resuspend();
    const checked = { extend: 0, upgrade: 0, unsuspend: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          op: fc.constantFrom('extend', 'upgrade', 'unsuspend' as const),
          status: fc.constantFrom(...STATUS_VIEWS),
          type: fc.constantFrom(...LINE_TYPES),
          orderBy: fc.constantFrom(...ORDER_BY),
          orderType: fc.constantFrom('asc' as const, 'desc' as const),
          search: fc.constantFrom('', 'a', 'e'),
          pick: fc.nat(),
          connections: fc.integer({ min: 1, max: 6 }),
        }),
        async ({ op, pick, connections, ...q }) => {
          // A fresh pager for each read: the expired view's block is found again, not remembered.
          const page = async () => (await linesPager(client).page(q, 0, 10, { fresh: true })).lines;
          const before = await page();
          const fit = before.filter((l) => (op === 'unsuspend' ? !l.enabled : !l.is_trial));
          if (!fit.length) return;
          const line = fit[pick % fit.length]!;
          try {
            if (op === 'extend') await client.extendLine({ id: line.id, duration: 1 });
            else if (op === 'upgrade')
              await client.upgradeLine({ id: line.id, new_connections: connections });
            else await client.unsuspendLine({ id: line.id });
          } catch {
            return; // refused by the server: nothing changed
          }
          if (!pageStaysAfter(op, q)) return;
          checked[op]++;
          const after = await page();
          if (op === 'unsuspend') await resuspend();
          expect(
            after.map((l) => l.id),
            `${op} of ${line.id} on ${JSON.stringify(q)}`,
          ).toEqual(before.map((l) => l.id));
        },
      ),
      { numRuns: 200, seed: 28 },
    );
    // The property held on pages the rule kept, not only on changes it sent to be read again.
    for (const op of ['extend', 'upgrade', 'unsuspend'] as const) expect(checked[op], op).toBeGreaterThan(3);
  });
});

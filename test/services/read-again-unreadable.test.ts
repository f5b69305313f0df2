/**
 * A line read again before a job spends, met only as an item the server sent in a form that does not
 * read, is there: it is not sent (nothing charged) and stays marked to review, never "not found"
 * ("deleted or moved", which drops it from the marks and the screen).
 */
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { leftToReview, notFoundAgain, readAgain } from '../../src/services/changes/fresh-lines';
import type { ServiceClient } from '../../src/services/client';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';

const rows = Array.from({ length: 150 }, (_, i) =>
  lineItem({ id: `id${String(i).padStart(3, '0')}`, username: `user${i}` }),
);

/** A server whose search matches usernames only; `bad`: ids of lines it sends that do not read;
 *  `nameless`: their id and username do not read either. */
function server(bad: ReadonlySet<string>, nameless = false) {
  return {
    listLines: async (q: { search?: string; offset?: number; limit?: number }) => {
      const s = q.search ? rows.filter((r) => r.username.includes(q.search!)) : rows;
      const offset = q.offset ?? 0;
      const items: LineListItem[] = s.slice(offset, offset + (q.limit ?? 20));
      const next = offset + items.length < s.length ? offset + items.length : null;
      return {
        offset,
        limit: q.limit ?? 20,
        totalHits: s.length,
        totalReturns: items.length,
        hasNextPage: next !== null,
        hasPreviousPage: offset > 0,
        nextOffset: next,
        previousOffset: null,
        lines: items.filter((r) => !bad.has(r.id)),
        unreadable: items.flatMap((r, index) =>
          bad.has(r.id)
            ? [
                nameless
                  ? { index, id: null, username: null, field: 'id', message: 'x' }
                  : { index, id: r.id, username: r.username, field: 'expiry', message: 'x' },
              ]
            : [],
        ),
      };
    },
  } as unknown as Pick<ServiceClient, 'listLines'>;
}

describe('a line read again that does not read', () => {
  it('is not sent and stays to review, not "not found" (one line, or several)', async () => {
    for (const ids of [['id120'], ['id120', 'id007']]) {
      const job = extendJob(
        'j',
        ids.map((id) => jobLine(rows.find((r) => r.id === id)!)),
      );
      const read = await readAgain(server(new Set(['id120'])), job, {
        cancelled: () => false,
        nowMs: Date.now(),
      });
      const line = read!.lines.find((l) => l.id === 'id120')!;
      expect(line.state).toBe('skipped');
      expect(notFoundAgain(line)).toBe(false);
      expect(leftToReview(line)).toBe(true);
      expect(line.detail).toMatch(/^not sent: .*does not read.*nothing charged/);
      // A line that is truly not there is still "not found".
      const gone = await readAgain(
        server(new Set()),
        extendJob('k', [jobLine(lineItem({ id: 'nope', username: 'nope' }))]),
        {
          cancelled: () => false,
          nowMs: Date.now(),
        },
      );
      expect(notFoundAgain(gone!.lines[0]!)).toBe(true);
    }
  });

  it('an item whose id and username do not read may be the line: not "not found" (one line, or several)', async () => {
    for (const ids of [['id120'], ['id120', 'id007']]) {
      const job = extendJob(
        'j',
        ids.map((id) => jobLine(rows.find((r) => r.id === id)!)),
      );
      const read = await readAgain(server(new Set(['id120']), true), job, {
        cancelled: () => false,
        nowMs: Date.now(),
      });
      const line = read!.lines.find((l) => l.id === 'id120')!;
      expect(line.state).toBe('skipped');
      expect(notFoundAgain(line)).toBe(false);
      expect(leftToReview(line)).toBe(true);
    }
  });
});

/**
 * A line read again before a job spends, met only as an item the server sent in a form that does not
 * read, is there: it is not sent (nothing charged) and stays marked to review, never "not found"
 * ("deleted or moved", which drops it from the marks and the screen).
 */
import { describe, expect, it } from 'vitest';
import { leftToReview, notFoundAgain, readAgain } from '../../src/services/changes/fresh-lines';
import type { ServiceClient } from '../../src/services/client';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';
import { listPage } from '../helpers/list-page';

const rows = Array.from({ length: 150 }, (_, i) =>
  lineItem({ id: `id${String(i).padStart(3, '0')}`, username: `user${i}` }),
);

/** A server whose search matches usernames only; `bad`: ids of lines it sends that do not read;
 *  `nameless`: their id and username do not read either. */
function server(bad: ReadonlySet<string>, nameless = false) {
  return {
    listLines: async (q: { search?: string; offset?: number; limit?: number }) =>
      listPage(q.search ? rows.filter((r) => r.username.includes(q.search!)) : rows, q, bad, nameless),
  } as unknown as Pick<ServiceClient, 'listLines'>;
}

/** id120 read again in a job of the lines `ids`, the server sending it in a form that does not read. */
async function readAgainAmong(ids: string[], nameless = false) {
  const job = extendJob(
    'j',
    ids.map((id) => jobLine(rows.find((r) => r.id === id)!)),
  );
  const read = await readAgain(server(new Set(['id120']), nameless), job, {
    cancelled: () => false,
    nowMs: Date.now(),
  });
  return read!.lines.find((l) => l.id === 'id120')!;
}

describe('a line read again that does not read', () => {
  it('is not sent and stays to review, not "not found" (one line, or several)', async () => {
    for (const ids of [['id120'], ['id120', 'id007']]) {
      const line = await readAgainAmong(ids);
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
      const line = await readAgainAmong(ids, true);
      expect(line.state).toBe('skipped');
      expect(notFoundAgain(line)).toBe(false);
      expect(leftToReview(line)).toBe(true);
      // No item of its id was listed: it may be the one that did not read, not "the server sent it".
      expect(line.detail).toBe(
        'not sent: read again, it may be one of the lines the server sent in a form that does not read; nothing charged: run it again',
      );
    }
  });
});

/**
 * A walk that starts again (the list changed under it) kept what its dropped pass met unread: an
 * item unreadable in the first pass, gone in the whole second pass, was still said "not readable
 * (listed by the server in a form that does not read)", a reason the last pass does not hold. Only
 * the last pass counts (review rev2 #6): the paste lookup's and a one-line read-again's walks.
 */
import { describe, expect, it } from 'vitest';
import { readAgain } from '../../src/services/changes/fresh-lines';
import type { ServiceClient } from '../../src/services/client';
import { lookupPasted, unsettledWhy } from '../../src/services/paste-lookup';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';
import { listPage } from '../helpers/list-page';

/** 250 lines; id150 does not read; the walk's third page deletes it and adds two (the walk restarts). */
const changing = () => {
  let rows = Array.from({ length: 250 }, (_, i) =>
    lineItem({ id: `id${String(i).padStart(3, '0')}`, username: `user${i}` }),
  );
  const bad = new Set(['id150']);
  const seen = { walkPages: 0 };
  const client = {
    listLines: async (q: { search?: string; offset?: number; limit?: number }) => {
      if (q.search)
        return listPage(
          rows.filter((r) => r.username.includes(q.search!) || r.id === q.search),
          q,
          bad,
        );
      if (++seen.walkPages === 3)
        rows = [
          ...rows.filter((r) => r.id !== 'id150'),
          lineItem({ id: 'id900', username: 'user900' }),
          lineItem({ id: 'id901', username: 'user901' }),
        ];
      return listPage(rows, q, bad);
    },
  } as unknown as Pick<ServiceClient, 'listLines'>;
  return { client, seen };
};

describe('the reason of a walk walked again', () => {
  it('a one-line read-again: the line gone from the last pass is gone, not "not readable"', async () => {
    const { client, seen } = changing();
    const job = extendJob('j', [jobLine(lineItem({ id: 'id150', username: 'user150' }))]);
    const again = await readAgain(client, job, { cancelled: () => false, nowMs: Date.now() });
    expect(seen.walkPages).toBeGreaterThan(3); // it did walk again
    expect(again?.lines[0]?.notSentAsRead).toBe('gone');
  });

  it('an item unreadable in a dropped pass and gone from the pass that settled the lookup: not "not readable"', async () => {
    let rows = Array.from({ length: 250 }, (_, i) =>
      lineItem({ id: `id${String(i).padStart(3, '0')}`, username: `user${i}` }),
    );
    const bad = new Set(['id150']);
    let walkPagesServed = 0;
    const client = {
      listLines: async (q: { search?: string; offset?: number; limit?: number }) => {
        if (q.search)
          return listPage(
            rows.filter((r) => r.username.includes(q.search!)),
            q,
            bad,
          );
        // The third page of the first pass: id150 (met unread on the second) is deleted, a line added.
        if (++walkPagesServed === 3)
          rows = [
            ...rows.filter((r) => r.id !== 'id150'),
            lineItem({ id: 'id900', username: 'user900' }),
            lineItem({ id: 'id901', username: 'user901' }),
          ];
        return listPage(rows, q, bad);
      },
    } as unknown as Pick<ServiceClient, 'listLines'>;
    const got = await lookupPasted(client, ['user150'], {
      cancelled: () => false,
      progress: () => {},
      total: 250,
    });
    expect(walkPagesServed).toBeGreaterThan(3); // it did walk again
    expect(got.missing).toEqual(['user150']);
    // The pass that settled it read the whole list: no item of that name, readable or not.
    expect(unsettledWhy(got, 'user150')).toBeNull(); // fails: 'unreadable' (from the dropped pass)
  });
});

/**
 * The walker's record of every id read (issue 27: a hash table over the ids, not a `Set`): exact,
 * whatever the hashes, and the two guards it serves (a line twice in one page, a line back on a
 * later page) name the same failures as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineListItem, LinesPage } from '../../src/api/contract';
import { IdSet, ListChangedError, PagingError, walkPages } from '../../src/services/page-walk';

describe('IdSet', () => {
  it('says where an id was first added, or -1, as a Map of first places does (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3000 }), (ids) => {
        const set = new IdSet();
        const first = new Map<string, number>();
        for (const id of ids) {
          const at = set.add(id);
          expect(at).toBe(first.get(id) ?? -1);
          if (!first.has(id)) first.set(id, first.size);
        }
        expect(set.size).toBe(first.size);
      }),
      { numRuns: 60 },
    );
  });

  it('two ids with the same hash are two ids: the hash only says where to compare', () => {
    const byHash = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; !pair; i++) {
      const id = `line-${i}`;
      const h = IdSet.hash(id);
      const other = byHash.get(h);
      if (other !== undefined) pair = [other, id];
      else byHash.set(h, id);
    }
    const [a, b] = pair;
    const set = new IdSet();
    expect(set.add(a)).toBe(-1);
    expect(set.add(b)).toBe(-1);
    expect(set.add(b)).toBe(1);
    expect(set.add(a)).toBe(0);
  });
});

const line = (id: string) => ({ id, username: id }) as unknown as LineListItem;

/** A server that answers each offset with the ids given for it (a full list otherwise). */
function server(pages: Record<number, readonly string[]>, total: number) {
  return async (offset: number, limit: number): Promise<LinesPage> => {
    const ids = pages[offset] ?? [];
    const rows = ids.slice(0, limit);
    const next = offset + rows.length < total ? offset + rows.length : null;
    return {
      offset,
      limit,
      totalHits: total,
      totalReturns: rows.length,
      hasNextPage: next !== null,
      hasPreviousPage: offset > 0,
      nextOffset: next,
      previousOffset: null,
      lines: rows.map(line),
      unreadable: [],
    };
  };
}

/** What a walk that failed says: a change's detail, or a paging error's message. */
async function failure(fetch: ReturnType<typeof server>, pageSize: number): Promise<string> {
  try {
    await walk(fetch, pageSize);
  } catch (err) {
    return err instanceof ListChangedError ? `changed: ${err.detail}` : `paging: ${(err as Error).message}`;
  }
  return 'no failure';
}

async function walk(fetch: ReturnType<typeof server>, pageSize: number) {
  const seen: string[] = [];
  for await (const page of walkPages(fetch, { pageSize })) seen.push(...page.lines.map((l) => l.id));
  return seen;
}

describe('walkPages, a line read again', () => {
  it('twice in one page: a paging error', async () => {
    const fetch = server({ 0: ['a', 'b', 'a'] }, 3);
    await expect(walk(fetch, 3)).rejects.toThrow(PagingError);
    expect(await failure(fetch, 3)).toBe('paging: the server sent line a twice in one page');
  });

  it('back on a later page (the boundary line where it was): the list changed', async () => {
    // Pages of 2 overlap by one: offset 1 starts with "b", as read; "a" comes back after it.
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'a', 'c'] }, 4);
    expect(await failure(fetch, 2)).toBe('changed: line a came back on a later page');
  });

  it('twice in a later page, and read before: the list changed (the earlier page is named first)', async () => {
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'a', 'a'] }, 4);
    expect(await failure(fetch, 2)).toBe('changed: line a came back on a later page');
  });

  it('twice in a later page, new: a paging error', async () => {
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'c', 'c'] }, 4);
    expect(await failure(fetch, 2)).toBe('paging: the server sent line c twice in one page');
  });

  it('every line once when nothing repeats', async () => {
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'c', 'd'], 3: ['d', 'e'] }, 5);
    expect(await walk(fetch, 2)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

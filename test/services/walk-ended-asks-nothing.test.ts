// "Filled as the walk ends with its requests still on their way" (page-walk.ts, `unread`): a walk
// that ended (its consumer stopped) asks nothing more. The page it had already asked (read-ahead)
// is answered after the walk ended: that answer must not ask the page after it, a request nobody
// reads and nobody waits for (a walk again would have it at the server beside its own).
import { expect, it } from 'vitest';
import { walkPages } from '../../src/services/page-walk';
import type { LineListItem, LinesPage } from '../../src/store/types';

const N = 500;
const idOf = (k: number) => String(k).padStart(4, '0');

function pageOf(offset: number, limit: number): LinesPage {
  const lines: LineListItem[] = [];
  for (let k = offset; k < Math.min(N, offset + limit); k++)
    lines.push({ id: idOf(k), username: idOf(k) } as unknown as LineListItem);
  const next = offset + lines.length < N ? offset + lines.length : null;
  return {
    offset,
    limit,
    totalHits: N,
    totalReturns: lines.length,
    hasNextPage: next !== null,
    hasPreviousPage: offset > 0,
    nextOffset: next,
    previousOffset: null,
    lines,
    unreadable: [],
  } as LinesPage;
}

it.each([false, true])('a walk that ended asks no page after (gated: %s)', async (gated) => {
  let ended = false;
  const late: string[] = [];
  const calls: Promise<unknown>[] = [];
  const fetch = (
    offset: number,
    limit: number,
    _fresh: boolean,
    onAnswered?: () => void,
    after?: Promise<void>,
  ) => {
    const p = (async () => {
      if (after) await after;
      if (ended) late.push(`${offset}+${limit}`);
      await new Promise((r) => setImmediate(r));
      const page = pageOf(offset, limit);
      onAnswered?.();
      await new Promise((r) => setImmediate(r));
      return page;
    })();
    calls.push(p);
    return p;
  };
  const unread: Promise<unknown>[] = [];
  for await (const _page of walkPages(fetch, { prefetch: () => true, gated, unread })) break;
  ended = true;
  // Every request made settles (those made late included) before the check.
  for (let seen = -1; seen !== calls.length; ) {
    seen = calls.length;
    await Promise.allSettled(calls);
    await new Promise((r) => setImmediate(r));
  }
  expect(late).toEqual([]);
});

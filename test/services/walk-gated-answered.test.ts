// A gated walk's `answered` (the page before a request made ahead is in hand: open its gate, or shut
// it) runs once a page: as the fetch tells it the reply came, or, for a fetch that cannot tell (it
// never calls `answered`: the expired view's pages are built from several requests), once the page
// is in hand. Each page made ahead then still leaves, never before the page before it is in hand.
import { expect, it } from 'vitest';
import { walkPages } from '../../src/services/page-walk';
import { numberedPage } from '../helpers/walk-pages';

const N = 450;

it('a gated walk whose fetch never says a page was answered reads every page, each after the one before it', async () => {
  let inHand = 0;
  let left = 0;
  let made = 0;
  const fetch = async (
    offset: number,
    limit: number,
    _fresh: boolean,
    _answered?: () => void,
    after?: Promise<void>,
  ) => {
    made++;
    if (after) await after;
    // Leaves as the (left+1)th request: every page before it is in hand.
    expect(inHand).toBe(left);
    left++;
    await new Promise((r) => setImmediate(r));
    inHand++;
    return numberedPage(offset, limit, { n: N, unreadable: () => false });
  };
  const got: string[] = [];
  for await (const page of walkPages(fetch, { gated: true, prefetch: () => true }))
    got.push(...page.lines.map((l) => l.id));
  expect(got).toEqual(Array.from({ length: N }, (_, k) => String(k).padStart(4, '0')));
  // Every request made left: none was a guess dropped or shut.
  expect(made).toBe(left);
  expect(left).toBe(5);
});

it('a gated walk whose fetch says each page was answered asks once an answer whether the next is wanted', async () => {
  let requests = 0;
  const fetch = async (
    offset: number,
    limit: number,
    _fresh: boolean,
    answered?: () => void,
    after?: Promise<void>,
  ) => {
    requests++;
    if (after) await after;
    await new Promise((r) => setImmediate(r));
    answered?.();
    return numberedPage(offset, limit, { n: N, unreadable: () => false });
  };
  let asked = 0;
  let pages = 0;
  for await (const _page of walkPages(fetch, {
    gated: true,
    prefetch: () => {
      asked++;
      return true;
    },
  }))
    pages++;
  expect(pages).toBe(5);
  expect(requests).toBe(pages);
  // Once as each answer comes (never again as its page is in hand), and once after each page read
  // but the last (the walk's own next request).
  expect(asked).toBe(requests + pages - 1);
});

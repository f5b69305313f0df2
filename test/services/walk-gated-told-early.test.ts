// A gated walk's fetch may say a page was answered as soon as it is in hand, before the fetch returns
// (a page from memory: the PageFetch contract allows it). Then the walk has not yet made the request
// the page leads to; made just after, its gate must still open once the page is in hand, or the walk
// waits on it for ever (the request never leaves, and its deadline runs only once it may leave).
import { expect, it } from 'vitest';
import { walkPages } from '../../src/services/page-walk';
import { idOf, numberedPage } from '../helpers/walk-pages';

const N = 450;

it('a gated walk whose fetch tells the first page answered before it returns still reads every page', async () => {
  const fetch = (
    offset: number,
    limit: number,
    _fresh: boolean,
    answered?: () => void,
    after?: Promise<void>,
  ) => {
    const page = () => {
      answered?.();
      return numberedPage(offset, limit, { n: N, unreadable: () => false });
    };
    return after ? after.then(page) : Promise.resolve(page());
  };
  const got: string[] = [];
  // The total known beforehand (a walk again after a count): the first page already asks ahead.
  for await (const page of walkPages(fetch, { gated: true, prefetch: () => true, total: N }))
    got.push(...page.lines.map((l) => l.id));
  expect(got).toEqual(Array.from({ length: N }, (_, k) => idOf(k)));
}, 5_000);

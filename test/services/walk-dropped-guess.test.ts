// "a page is never asked before the one before it was answered" (page-walk.ts,
// `prefetch`). A guess the walk dropped (its page ended on an item with no id, so the next request
// reaches back two) is still in flight; its answer still asks ahead (`guessAfter` of a dropped plan),
// and with a page size under 100 that guess is exactly the page after the request the walk made
// instead: it is then used, though it was asked before that request was answered.
import { expect, it } from 'vitest';
import { walkPages } from '../../src/services/page-walk';
import type { LinesPage } from '../../src/store/types';
import { numberedPage } from '../helpers/walk-pages';

const N = 300;
const BAD = 99; // the item with no readable id: the last of the second page
const pageOf = (offset: number, limit: number) =>
  numberedPage(offset, limit, { n: N, unreadable: (k) => k === BAD && 'nameless' });

it.each([false, true])(
  'a page the walk uses left only after the page it follows was answered (gated: %s)',
  async (gated) => {
    const events: string[] = [];
    let n = 0;
    const fetch = async (
      offset: number,
      limit: number,
      _fresh: boolean,
      onAnswered?: () => void,
      after?: Promise<void>,
    ) => {
      // Each request its own name: a page asked twice (a dropped guess, then the walk's own) is two.
      const key = `${offset}+${limit}#${++n}`;
      // A request made ahead leaves when its gate opens (a shut one never does).
      if (after) await after;
      events.push(`ask ${key}`);
      await new Promise((r) => setImmediate(r));
      // Tagged with its request: the walk yields the page with its new lines' offset.
      const page = { ...pageOf(offset, limit), request: key };
      events.push(`answer ${key}`);
      onAnswered?.();
      await new Promise((r) => setImmediate(r)); // the parse
      return page;
    };
    const used: string[] = [];
    for await (const page of walkPages(fetch, { pageSize: 50, prefetch: () => true, gated }))
      used.push((page as LinesPage & { request: string }).request);
    // Each page the walk used was asked after the one it used before it was answered.
    for (let i = 1; i < used.length; i++) {
      const asked = events.indexOf(`ask ${used[i]}`);
      const before = events.indexOf(`answer ${used[i - 1]}`);
      expect({ page: used[i], askedAfterAnswerOf: used[i - 1], ok: asked > before }).toEqual({
        page: used[i],
        askedAfterAnswerOf: used[i - 1],
        ok: true,
      });
    }
  },
);

// gated read-ahead. When a page's answer comes and the walk does not want the page
// after it yet (`wanted()` counts a full page of new lines: `lines + size`), the guess's latch is shut
// and its request ends unsent — but the guess stays in `ahead`. When that page brings fewer new lines
// than `size` (a later page brings 99 of the 100 it asks: one is read again; or items that do not
// read), the walk still wants more, asks exactly the guessed page, `take` finds the shut guess and
// the walk fails with "not sent" (headless: "The request was cancelled", exit 1) instead of asking.
import { expect, it } from 'vitest';
import { walkPages } from '../../src/services/page-walk';
import { numberedPage } from '../helpers/walk-pages';

const N = 400;
/** Items the server lists in a form that does not read (each with its id): 60 of page two's 99 new. */
let bad = (k: number) => k >= 100 && k < 160;
const pageOf = (offset: number, limit: number) =>
  numberedPage(offset, limit, { n: N, unreadable: (k) => bad(k) && 'field' });

it.each([
  // Every item reads: a page after the first brings 99 new lines (100 asked, one read again), not
  // the 100 `wanted()` counts: `linedesk lines --ndjson --limit 200` (299, 398, …) fails.
  ['every item readable, want 200', 200, () => false],
  ['60 unreadable items on page two, want 150', 150, (k: number) => k >= 100 && k < 160],
] as const)(
  'a reader that still wants lines gets the page a shut guess stood for (gated: %s)',
  async (_name, want, unreadable) => {
    bad = unreadable;
    const fetch = async (
      offset: number,
      limit: number,
      _fresh: boolean,
      onAnswered?: () => void,
      after?: Promise<void>,
    ) => {
      if (after) await after; // a shut latch: the request ends unsent (rejects)
      await new Promise((r) => setImmediate(r));
      const page = pageOf(offset, limit);
      onAnswered?.();
      await new Promise((r) => setImmediate(r));
      return page;
    };
    const got: string[] = [];
    for await (const page of walkPages(fetch, { gated: true, prefetch: (lines) => lines < want })) {
      got.push(...page.lines.map((l) => l.id));
      if (got.length >= want) break;
    }
    expect(got.length).toBeGreaterThanOrEqual(want);
  },
);

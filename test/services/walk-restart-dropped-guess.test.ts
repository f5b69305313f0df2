// `walkWhole` waits, before walking again, for the requests the last walk left on
// their way (`unread`): "never two requests at the server at once across a restart". A guess the
// walk dropped on a miss (`take`) is still on its way, but is not among them: the walk again sends
// its first page beside it.
import { expect, it } from 'vitest';
import { walkWhole } from '../../src/services/page-walk';
import { numberedPage } from '../helpers/walk-pages';

const N = 300;
const BAD = 99; // no readable id: the first page ends on it, so the next request reaches back two
const pageOf = (offset: number, limit: number, total: number) =>
  numberedPage(offset, limit, { n: N, unreadable: (k) => k === BAD && 'nameless', totalHits: total });

it('the walk again waits for a guess the last walk dropped on a miss', async () => {
  let calls = 0;
  /** The first walk's dropped guess is on its way. */
  let guessOut = false;
  /** The walk again's first request was sent while it was. */
  let beside = false;
  /** The dropped guess (99+100 of the first walk) answers only after the walk restarted (or a while). */
  let release: () => void = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  const fetch = async (offset: number, limit: number, fresh: boolean, onAnswered?: () => void) => {
    const n = ++calls;
    if (fresh && n > 1) {
      beside ||= guessOut;
      release();
    }
    if (n > 1 && offset === 99 && limit === 100 && calls < 5) {
      guessOut = true;
      await Promise.race([held, new Promise((r) => setTimeout(r, 200))]);
      guessOut = false;
    }
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    // The walk's second page (98+100) counts one more line: the list changed, the walk restarts.
    const page = pageOf(offset, limit, offset === 98 && calls < 5 ? N + 1 : N);
    onAnswered?.();
    return page;
  };
  await walkWhole(
    fetch,
    () => 0,
    (s) => s + 1,
    { total: N, prefetch: () => true },
  );
  expect(beside).toBe(false);
});

/**
 * The line a profile switch opens (find-slice `openLineOnStart`) searches its username
 * first; a username over SEARCH_MAX (200) is refused before the request is sent, so the line was not
 * opened ("Could not open line …: A search is at most 200 characters") though its id finds it: the
 * search is skipped, the lookup by id opens it (review rev2 #4).
 */
import { describe, expect, it, vi } from 'vitest';
import { selectScreen } from '../../src/store/view-stack';
import { storeOnSandbox } from '../helpers/app';
import { rename } from '../helpers/find-env';
import { sandbox } from '../helpers/sandbox';

describe('review rev2: opening a line of a long username after a switch', () => {
  it('opens the line (its id finds it), never "Could not open line"', async () => {
    const sb = await sandbox({ lines: 40 });
    const long = rename(sb, 7, `long${'y'.repeat(246)}`);
    const { store } = await storeOnSandbox({}, { openLine: { id: long.id, username: long.username } }, sb);
    await store.getState().start();
    await vi.waitFor(
      () => {
        const top = selectScreen(store.getState());
        expect(top?.id === 'detail' && top.line.id).toBe(long.id);
      },
      { timeout: 5000 },
    );
  });
});

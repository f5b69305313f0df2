import { describe, expect, it } from 'vitest';
import { drawnForOf } from '../../src/store/drawn-for';
import { drawnCount, drawnCountOf } from '../../src/store/ui-slice';
import { storeOnSandbox } from '../helpers/app';

/**
 * A scroll stops where the rows in view end with the last item, counted as drawn for what the list
 * shows now (store/drawn-for.ts, looked up by scrollBy itself) at the terminal's size now (ui-slice
 * `drawnCount`): a count drawn at another size, or for another list, is no count, and a move forward
 * waits for the count (a move back never passes the end).
 */
describe('scrollBy', () => {
  const TALL = { columns: 100, rows: 40 };
  const SHORT = { columns: 100, rows: 20 };

  it('stops at the end counted at the size now, never at the size before', async () => {
    const { store } = await storeOnSandbox({ lines: 1 });
    const s = () => store.getState();
    const all = drawnForOf(s(), 'journal');
    s().setTerminalSize(TALL);
    expect(drawnCount(s(), 'journal', all)).toEqual({
      rows: null,
      why: 'The view is being drawn: try again',
    });
    s().setPageRows('journal', 15, all, TALL);
    expect(drawnCount(s(), 'journal', all)).toEqual({ rows: 15, why: null });
    s().setTerminalSize(SHORT);
    expect(drawnCount(s(), 'journal', all).why).toBe('The view is being drawn at its new size: try again');
    s().scrollBy('journal', Number.POSITIVE_INFINITY, 20);
    expect(s().scroll.journal).toBe(0);
    s().setPageRows('journal', 5, all, SHORT);
    s().scrollBy('journal', Number.POSITIVE_INFINITY, 20);
    expect(s().scroll.journal).toBe(15);
    // Back moves without a count: they never pass the end.
    s().setTerminalSize(TALL);
    s().scrollBy('journal', -10, 20);
    expect(s().scroll.journal).toBe(5);
  });

  it('a count drawn for another list is no count', async () => {
    const { store } = await storeOnSandbox({ lines: 1 });
    const s = () => store.getState();
    s().setTerminalSize(TALL);
    // Help drawn over the renewals: opened over the lines, that count is not this one's.
    s().navigate('renewals');
    s().pushView({ id: 'help' });
    s().setPageRows('help', 15, drawnForOf(s(), 'help'), TALL);
    s().navigate('lines');
    s().pushView({ id: 'help' });
    s().scrollBy('help', Number.POSITIVE_INFINITY, 20);
    expect(s().scroll.help).toBe(0);
    s().setPageRows('help', 15, drawnForOf(s(), 'help'), TALL);
    s().scrollBy('help', Number.POSITIVE_INFINITY, 20);
    expect(s().scroll.help).toBe(5);
  });

  it("read aloud, the journal's count is drawn for its scroll offset (its entries' rows decide it)", async () => {
    const { store } = await storeOnSandbox({ lines: 1 });
    const s = () => store.getState();
    s().setTerminalSize(TALL);
    // Shown: entries of one row each; the count holds wherever the list is scrolled.
    s().setPageRows('journal', 5, drawnForOf(s(), 'journal'), TALL);
    s().scrollBy('journal', 3, 20);
    expect(drawnCountOf(s(), 'journal').rows).toBe(5);
    // Read aloud: each entry is a sentence of its own rows, counted from the offset it was drawn at.
    s().setSpoken(true);
    s().setPageRows('journal', 5, drawnForOf(s(), 'journal'), TALL);
    s().scrollBy('journal', 2, 20);
    expect(s().scroll.journal).toBe(5);
    expect(drawnCountOf(s(), 'journal').why).toBe('The view is being drawn: try again');
    s().scrollBy('journal', 2, 20);
    expect(s().scroll.journal).toBe(5);
  });
});

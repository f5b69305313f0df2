import { useLayoutEffect } from 'react';
import { drawnForOf } from '../store/drawn-for';
import { drawnCount, type PagedArea } from '../store/ui-slice';
import { useApp } from './store-context';

/**
 * Says, once drawn, how many rows (items) of `area` are in view, what they were drawn for (what the
 * list shows now, store/drawn-for.ts: the dialog and its phase, the list and its filter; ui-slice
 * `drawn`) and at which terminal size (the store's, which the frame is drawn at: ui-slice
 * `terminalSize`): a page key moves by that many (less one kept in sight), a scroll stops where the
 * last ones fill them, and the page and scroll keys are offered only when some are in view and some
 * are not. Returns whether the store's count is this draw's: the frame that first draws a list, or
 * first draws it at a new terminal size, still has the count of the frame before (the store hears it
 * after the draw), so text naming the scroll keys is drawn only once it is true, on the frames the
 * footer offers them.
 */
export function usePageRows(area: PagedArea, rows: number): boolean {
  const setPageRows = useApp((s) => s.setPageRows);
  const at = useApp((s) => s.terminalSize);
  const drawnFor = useApp((s) => drawnForOf(s, area, rows));
  useLayoutEffect(() => setPageRows(area, rows, drawnFor, at), [setPageRows, area, rows, drawnFor, at]);
  return useApp((s) => drawnCount(s, area, drawnFor).rows === rows);
}

import { useLayoutEffect } from 'react';
import { type PagedArea, pageRowsAsDrawn } from '../store/ui-slice';
import { useApp } from './store-context';

/**
 * Says, once drawn, how many rows (items) of `area` are in view and what they were drawn for
 * (`drawnFor`: the dialog and its phase, the list and its filter; ui-slice `pageRowsFor`): a page
 * key moves by that many, a scroll stops where the last ones fill them, and the scroll keys are
 * offered only when some are in view and some are not. Returns whether the store's count is this
 * draw's: the frame that first draws a list still has the count of the frame before (the store
 * hears it after the draw), so text naming the scroll keys is drawn only once it is true, on the
 * frames the footer offers them.
 */
export function usePageRows(area: PagedArea, rows: number, drawnFor = ''): boolean {
  const setPageRows = useApp((s) => s.setPageRows);
  useLayoutEffect(() => setPageRows(area, rows, drawnFor), [setPageRows, area, rows, drawnFor]);
  return useApp((s) => pageRowsAsDrawn(s, area, drawnFor) === rows);
}

import type { AppState } from './app-store';
import { selectCurrentLine } from './lines-slice';

/** The line of the detail screen, fresher from the current page when it is there. */
export const selectDetailLine = (s: AppState) => {
  const top = s.screens.at(-1);
  if (top?.id !== 'detail') return undefined;
  return s.page?.lines.find((l) => l.id === top.line.id) ?? top.line;
};

/** The line a change applies to: the detail screen's, or the one under the cursor. */
export const selectTargetLine = (s: AppState) => selectDetailLine(s) ?? selectCurrentLine(s);

/** With lines marked, a line change in the browser or the marks view acts on every marked line. */
export const isBulkMode = (s: AppState) => s.marked.size > 0 && s.screens.at(-1)?.id !== 'detail';

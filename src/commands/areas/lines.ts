import { loaded } from '../../domain/load';
import type { AppState } from '../../store/app-store';
import { selectCurrentLine } from '../../store/lines-slice';
import { selectTargetReadAt } from '../../store/selectors';
import { c, needsLine, READ_ONLY, writes } from '../command';
import { keyNamed, said, wrapped } from '../hints';

const nothingMarked = (s: AppState) => (s.marked.size ? null : 'Nothing is marked');

/** The lines browser, its search field and the marks view. */
export const LINES_COMMANDS = [
  c('lines.down', ['down', 'j'], 'lines', 'Navigate', 'Next line', (s) => s.moveCursor(1)),
  c('lines.up', ['up', 'k'], 'lines', 'Navigate', 'Previous line', (s) => s.moveCursor(-1)),
  c('lines.pageNext', ['pagedown', ']'], 'lines', 'Navigate', 'Next page', (s) => s.pageNext(), {
    footer: true,
    disabled: (s) => (loaded(s.lines)?.nextOffset === null ? 'This is the last page' : null),
  }),
  c('lines.pagePrev', ['pageup', '['], 'lines', 'Navigate', 'Previous page', (s) => s.pagePrev(), {
    footer: true,
    disabled: (s) => (loaded(s.lines)?.previousOffset === null ? 'This is the first page' : null),
  }),
  c('lines.first', ['g', 'home'], 'lines', 'Navigate', 'First line', (s) => s.firstLine()),
  c('lines.last', ['G', 'end'], 'lines', 'Navigate', 'Last line', (s) => s.lastLine()),
  c(
    'lines.open',
    ['enter'],
    'lines',
    'Navigate',
    'Open the line',
    (s) => {
      const line = selectCurrentLine(s);
      if (line) s.openDetail(line, selectTargetReadAt(s));
    },
    { footer: true, disabled: needsLine(selectCurrentLine) },
  ),
  c('lines.search', ['/'], 'lines', 'Find', 'Search username or id', (s) => s.openSearch(), { footer: true }),
  c(
    'lines.filterStatus',
    ['f'],
    'lines',
    'Find',
    'Status filter: all, active, suspended, expiring, expired',
    (s) => s.cycleStatus(),
    { footer: true },
  ),
  c('lines.filterType', ['t'], 'lines', 'Find', 'Type filter: all, premium, trial', (s) => s.cycleType()),
  c(
    'lines.sortColumn',
    ['o'],
    'lines',
    'Find',
    'Sort by: id, username, enabled, expiry',
    (s) => s.cycleSort(),
    {
      footer: true,
      // Annotated: the hint names a command of the table this table's type is built from.
      disabled: (s): string | null => {
        if (s.query.status !== 'expired') return null;
        return `The expired view is sorted by expiry${wrapped(said(keyNamed(s, 'lines.sortOrder'), 'flips it'))}`;
      },
    },
  ),
  c('lines.sortOrder', ['O'], 'lines', 'Find', 'Flip the sort order', (s) => s.flipOrder()),
  // Marks exist for changes to many lines at once: nothing to mark for in read-only mode.
  c('lines.mark', ['space'], 'lines', 'Marks', 'Mark or unmark the line', (s) => s.toggleMark(), {
    footer: true,
    disabled: (s) => (s.readOnly ? READ_ONLY : needsLine(selectCurrentLine)(s)),
  }),
  c('lines.markPage', ['a'], 'lines', 'Marks', 'Mark or unmark the page', (s) => s.togglePage(), {
    disabled: writes,
  }),
  c(
    'lines.markAll',
    ['A'],
    'lines',
    'Marks',
    'Mark every line matching the filter (again: stop)',
    (s) => void s.markAllMatching(),
    { disabled: writes },
  ),
  c('lines.marks', ['M'], 'lines', 'Marks', 'Show the marked lines', (s) => s.openMarks(), {
    disabled: writes,
  }),

  // Marks view
  c('marks.down', ['down', 'j'], 'marks', 'Marks', 'Next marked line', (s) => s.moveMarksCursor(1)),
  c('marks.up', ['up', 'k'], 'marks', 'Marks', 'Previous marked line', (s) => s.moveMarksCursor(-1)),
  c(
    'marks.unmark',
    ['space'],
    'marks',
    'Marks',
    'Unmark the line',
    (s) => {
      if (s.marksCursor < s.marked.size) s.unmark(s.marked.idAt(s.marksCursor));
    },
    { footer: true, disabled: nothingMarked },
  ),
  c(
    'marks.clear',
    ['U'],
    'marks',
    'Marks',
    'Unmark every line',
    (s) => {
      s.clearMarks();
      s.notify('Every mark cleared', 'info');
    },
    { footer: true, disabled: nothingMarked },
  ),

  // Search field
  c('search.apply', ['enter'], 'search', 'Input', 'Search now', (s) => s.applySearch(), { footer: true }),
  c('search.clear', ['escape'], 'search', 'Input', 'Clear the search', (s) => s.clearSearch(), {
    footer: true,
  }),
] as const;

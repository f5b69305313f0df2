import type { AppState } from '../../store/app-store';
import { selectShownColumns } from '../../store/views-slice';
import { c } from '../command';
import { joined, keyNamed, said, wrapped } from '../hints';

/** A hidden column has no place to move from: said with the key that shows it, as it is now. */
const hiddenColumn = (s: AppState): string | null => {
  if (selectShownColumns(s).includes(s.columnsCursor)) return null;
  const show = keyNamed(s, 'columns.toggle');
  return `Show the column first${wrapped(show)}, then move it`;
};

/** Saved views of the lines browser, its column picker and the search field's history. */
export const VIEWS_COMMANDS = [
  c(
    'lines.nextView',
    ['v'],
    'lines',
    'Find',
    'Next saved view (filter, search, sort, columns)',
    (s) => s.nextView(),
    {
      // Annotated: the hint names a command of the table this table's type is built from.
      disabled: (s): string | null =>
        s.savedViews.length
          ? null
          : joined(['No saved views yet', said(keyNamed(s, 'lines.saveView'), 'saves this one')], ': '),
    },
  ),
  c('lines.saveView', ['V'], 'lines', 'Find', 'Save this view as… (:view save NAME)', (s) => {
    s.openPalette();
    s.setPaletteInput(`view save ${s.viewName ?? ''}`);
  }),
  c('lines.columns', ['L'], 'lines', 'Find', 'Choose and order the columns', (s) => s.openColumns()),

  // Column picker
  c('columns.down', ['down', 'j'], 'columns', 'Navigate', 'Next column', (s) => s.moveColumnsCursor(1)),
  c('columns.up', ['up', 'k'], 'columns', 'Navigate', 'Previous column', (s) => s.moveColumnsCursor(-1)),
  c('columns.toggle', ['space'], 'columns', 'Input', 'Show or hide the column', (s) => s.toggleColumn(), {
    footer: true,
  }),
  c('columns.moveUp', ['K'], 'columns', 'Input', 'Move the column left', (s) => s.moveColumn(-1), {
    footer: true,
    disabled: hiddenColumn,
  }),
  c('columns.moveDown', ['J'], 'columns', 'Input', 'Move the column right', (s) => s.moveColumn(1), {
    footer: true,
    disabled: hiddenColumn,
  }),
  c('columns.reset', ['R'], 'columns', 'Input', 'The default columns', (s) => s.resetColumns()),
  c('columns.save', ['s'], 'columns', 'Input', 'Save into the current view', (s) => s.saveColumns(), {
    footer: true,
    // Its key on the browser is not named: it does not work here, under the picker.
    disabled: (s): string | null =>
      s.viewName ? null : 'No view chosen: save this view on the browser first',
  }),
  c(
    'columns.close',
    ['escape', 'enter'],
    'columns',
    'Input',
    'Back to the lines',
    (s) => s.closeView('columns'),
    {
      footer: true,
    },
  ),

  // Search field
  c('search.historyPrev', ['up'], 'search', 'Input', 'Previous search', (s) => s.searchHistoryStep(-1)),
  c('search.historyNext', ['down'], 'search', 'Input', 'Next search', (s) => s.searchHistoryStep(1)),
] as const;

import { historyStep, remember } from '../domain/history';
import {
  COLUMN_IDS,
  DEFAULT_VIEW,
  type SavedView,
  SEARCH_HISTORY_MAX,
  viewNameProblem,
} from '../present/saved-views';
import { DEFAULT_QUERY, type LinesQuery } from '../services/lines-query';
import type { GetState, SetState, StoreDeps } from './deps';

/**
 * Saved views of the lines browser (a name for its filter, search, sort and columns), its column
 * set and the column picker, and the search field's history. The query itself is the lines slice's:
 * a view is applied through its `setQuery`, a recalled search typed through `setSearchDraft`.
 */
export interface ViewsSlice {
  readonly savedViews: readonly SavedView[];
  /** The view last applied or saved (the picker saves into it); null: none chosen. */
  readonly viewName: string | null;
  /** The browser's columns in order; null: the default set (the Note column as `N` says). */
  readonly columns: readonly string[] | null;
  /** The column picker's cursor, on a column id. */
  readonly columnsCursor: string;
  readonly searchHistory: readonly string[];
  /** Position while walking the search history with ↑/↓; null when typing. */
  readonly searchHistoryIndex: number | null;

  /**
   * `:view NAME`, `v`: the view's filter, search, sort and columns (`default`: the defaults). False
   * when there is no such view (the flash names the known ones).
   */
  applyView: (name: string) => boolean;
  /** The next saved view after the current one (the default view between the last and the first). */
  nextView: () => void;
  /** `:view save NAME`: the browser's filter, search, sort and columns under a name. */
  saveView: (name: string) => void;
  deleteView: (name: string) => void;
  /** The column picker, on the browser's columns as shown now. */
  openColumns: () => void;
  moveColumnsCursor: (delta: number) => void;
  /** Shows or hides a column (the one under the picker's cursor when none is named). */
  toggleColumn: (id?: string) => void;
  /** Moves the column under the picker's cursor among the shown ones. */
  moveColumn: (delta: -1 | 1) => void;
  /** The column set as the picker left it, saved into the current view. */
  saveColumns: () => void;
  /** Back to the default column set. */
  resetColumns: () => void;
  searchHistoryStep: (delta: -1 | 1) => void;
  /** A search applied with Enter: kept in this account's history. */
  rememberSearch: (text: string) => void;
}

/** The browser's columns as shown now: the chosen set, or the default one (the Note column as `N` says). */
export const selectShownColumns = (s: {
  readonly columns: readonly string[] | null;
  readonly noteColumn: boolean;
}): readonly string[] => s.columns ?? COLUMN_IDS.filter((id) => id !== 'note' || s.noteColumn);

/** The view in use, and whether the browser has moved off it since (a filter, the sort, a column). */
export const selectViewState = (s: {
  readonly viewName: string | null;
  readonly savedViews: readonly SavedView[];
  readonly query: LinesQuery;
  readonly columns: readonly string[] | null;
}): string | null => {
  const view = s.savedViews.find((v) => v.name === s.viewName);
  if (!view) return null;
  const same =
    JSON.stringify(view.query) === JSON.stringify({ ...view.query, ...s.query }) &&
    JSON.stringify(view.columns) === JSON.stringify(s.columns);
  return same ? `view ${view.name}` : `view ${view.name} (changed)`;
};

/** The picker's list: the shown columns in their order, then the hidden ones in the default order. */
export const pickerColumns = (shown: readonly string[]): string[] => [
  ...shown,
  ...COLUMN_IDS.filter((id) => !shown.includes(id)),
];

export function createViewsSlice(set: SetState, get: GetState, deps: StoreDeps): ViewsSlice {
  const api = deps.views;
  const known = () => [DEFAULT_VIEW, ...get().savedViews.map((v) => v.name)].join(', ');
  const shown = () => selectShownColumns(get());

  return {
    savedViews: api?.list() ?? [],
    viewName: null,
    columns: null,
    columnsCursor: COLUMN_IDS[0]!,
    searchHistory: api?.searches() ?? [],
    searchHistoryIndex: null,

    applyView(name) {
      const view =
        name.toLowerCase() === DEFAULT_VIEW
          ? { name: DEFAULT_VIEW, query: DEFAULT_QUERY, columns: null }
          : get().savedViews.find((v) => v.name === name);
      if (!view) {
        get().notify(`No view "${name.slice(0, 40)}"; known: ${known()}`, 'error');
        return false;
      }
      set({ viewName: view.name === DEFAULT_VIEW ? null : view.name, columns: view.columns });
      get().setQuery({ ...view.query });
      get().notify(`View ${view.name}`, 'info');
      return true;
    },

    nextView() {
      const names = get().savedViews.map((v) => v.name);
      // None saved: the command is refused, with the key that saves one (commands/areas/views.ts).
      if (!names.length) return;
      const at = get().viewName === null ? -1 : names.indexOf(get().viewName!);
      get().applyView(at + 1 < names.length ? names[at + 1]! : DEFAULT_VIEW);
    },

    saveView(name) {
      const problem = viewNameProblem(name);
      if (problem) return get().notify(problem, 'error');
      const view: SavedView = { name, query: get().query, columns: get().columns };
      const error = api ? api.save(view) : 'Views cannot be saved here';
      if (error) return get().notify(`View ${name} not saved: ${error}`, 'error');
      set({ savedViews: api?.list() ?? [], viewName: name });
      get().notify(`View ${name} saved`, 'info');
    },

    deleteView(name) {
      if (!get().savedViews.some((v) => v.name === name))
        return get().notify(`No view "${name.slice(0, 40)}"; known: ${known()}`, 'error');
      const error = api ? api.remove(name) : 'Views cannot be saved here';
      if (error) return get().notify(`View ${name} not deleted: ${error}`, 'error');
      set({ savedViews: api?.list() ?? [], viewName: get().viewName === name ? null : get().viewName });
      get().notify(`View ${name} deleted`, 'info');
    },

    openColumns() {
      set({ columnsCursor: shown()[0] ?? COLUMN_IDS[0]! });
      get().pushView({ id: 'columns' });
    },
    moveColumnsCursor(delta) {
      const list = pickerColumns(shown());
      const at = Math.max(0, Math.min(list.length - 1, list.indexOf(get().columnsCursor) + delta));
      set({ columnsCursor: list[at]! });
    },
    toggleColumn(id = get().columnsCursor) {
      const now = shown();
      if (now.includes(id) && now.length === 1)
        return get().notify('The last column stays: show another one first', 'error');
      set({ columns: now.includes(id) ? now.filter((c) => c !== id) : [...now, id] });
    },
    moveColumn(delta) {
      const now = [...shown()];
      const at = now.indexOf(get().columnsCursor);
      const to = at + delta;
      // A hidden column is refused by the command (commands/areas/views.ts), with its key named.
      if (at < 0 || to < 0 || to >= now.length) return;
      [now[at], now[to]] = [now[to]!, now[at]!];
      set({ columns: now });
    },
    saveColumns() {
      const name = get().viewName;
      // None chosen: the command is refused, with the key that saves one (commands/areas/views.ts).
      if (name) get().saveView(name);
    },
    resetColumns() {
      set({ columns: null, columnsCursor: COLUMN_IDS[0]! });
    },

    searchHistoryStep(delta) {
      const { searchHistory: list, searchHistoryIndex: index, searchDraft } = get();
      // Typed since the last recall: the walk starts again from the newest.
      const from = index !== null && list[index] === searchDraft ? index : null;
      const step = historyStep(list, from, delta);
      if (!step) return;
      set({ searchHistoryIndex: step.index });
      get().setSearchDraft(step.text);
    },
    rememberSearch(text) {
      const list = remember(get().searchHistory, text, SEARCH_HISTORY_MAX);
      set({ searchHistoryIndex: null });
      if (list.join('\n') === get().searchHistory.join('\n')) return;
      set({ searchHistory: list });
      const error = api?.saveSearches(list) ?? null;
      if (error) get().notify(`Search history not saved: ${error}`, 'error');
    },
  };
}

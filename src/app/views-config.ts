import {
  parseSearches,
  parseViews,
  type SavedView,
  SEARCH_HISTORY_MAX,
  type ViewsApi,
  viewJson,
} from '../present/saved-views';
import { type Config, EMPTY_CONFIG, loadConfig, saveConfig } from './config';

const objectOr = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {};

/**
 * The saved views (shared by every account) and this account's search history, kept in the config
 * (`views`, `searches`). `start`: the config as the start read it. A save reads the file first and
 * changes only its own entry: other views, a bad one named at start included, stay as they are in
 * the file, and so do the fields of a view this version does not know.
 */
export function viewsApi(account: string, path?: string, start?: Config | null): ViewsApi {
  const first = start === undefined ? safeLoad(path) : start;
  const read = parseViews(first?.views);
  const history = parseSearches(first?.searches, account);
  let views: SavedView[] = read.views;
  let searches: readonly string[] = history.searches;
  const write = (change: (c: Config) => Config): string | null => {
    try {
      saveConfig(change(loadConfig(path) ?? EMPTY_CONFIG), path);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };
  return {
    problems: [...read.problems, ...(history.problem ? [history.problem] : [])],
    list: () => views,
    save(view) {
      const error = write((c) => {
        const all = objectOr(c.views);
        all[view.name] = { ...objectOr(all[view.name]), ...viewJson(view) };
        // A column set given back to the default is no longer a list.
        if (!view.columns) delete (all[view.name] as Record<string, unknown>).columns;
        return { ...c, views: all };
      });
      if (!error) {
        const at = views.findIndex((v) => v.name === view.name);
        views = at < 0 ? [...views, view] : views.map((v, i) => (i === at ? view : v));
      }
      return error;
    },
    remove(name) {
      const error = write((c) => {
        const all = objectOr(c.views);
        delete all[name];
        return { ...c, views: all };
      });
      if (!error) views = views.filter((v) => v.name !== name);
      return error;
    },
    searches: () => searches,
    saveSearches(list) {
      const kept = list.slice(-SEARCH_HISTORY_MAX);
      const error = write((c) => ({ ...c, searches: { ...objectOr(c.searches), [account]: kept } }));
      if (!error) searches = kept;
      return error;
    },
  };
}

function safeLoad(path?: string): Config | null {
  try {
    return loadConfig(path);
  } catch {
    return null; // a config that cannot be used is refused where it is loaded, named
  }
}

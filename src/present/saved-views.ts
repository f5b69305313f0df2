/**
 * Saved views of the lines browser: a name for a filter, a search, a sort and a column set, kept in
 * the config (`views`, docs/CONFIG.md) and applied by both front-ends (`:view NAME`, `v`, `linedesk
 * lines --view NAME`). The config's entries are read one by one here: a bad view is named and left
 * out, never fatal. Also the per-account search history (`searches`). No zod, no I/O.
 */
import type { LineListItem } from '../api/contract';
import { LINE_TYPES, ORDER_BY, ORDER_TYPES } from '../api/contract/choices';
import { sanitize, stripForbidden } from '../api/sanitize';
import { PROFILE_NAME } from '../domain/profile-name';
import { DEFAULT_QUERY, type LinesQuery } from '../services/lines-query';
import type { LineNote } from '../services/notes';
import { STATUS_VIEWS } from '../services/status-views';
import { type Column, lineColumns } from './lines-columns';

export interface SavedView {
  readonly name: string;
  readonly query: LinesQuery;
  /** The browser's columns in order; null: the default set (the Note column as `N` says). */
  readonly columns: readonly string[] | null;
}

/** The browser's columns in their default order, the Note column after the label. */
export const COLUMN_IDS: readonly string[] = lineColumns(new Map()).map((c) => c.id);

/** The view with no name of its own: the default filter, sort and columns (`:view default`). */
export const DEFAULT_VIEW = 'default';
/** Words `:view` reads as verbs, so no view may be called so. */
const RESERVED = new Set([DEFAULT_VIEW, 'save', 'delete']);
const VIEW_NAME_RULE = 'letters, digits, . _ - (at most 32)';

/** Why `name` cannot name a view, or null. */
export function viewNameProblem(name: string): string | null {
  if (!PROFILE_NAME.test(name)) return `A view name takes ${VIEW_NAME_RULE}`;
  if (RESERVED.has(name.toLowerCase())) return `"${name}" is a word of :view; choose another name`;
  return null;
}

/** How many searches are kept per account. */
export const SEARCH_HISTORY_MAX = 20;

/** The screens call the expiry column EXPIRES and its sort expiry; the API says exp_date. */
const SORT_NAMES: Readonly<Record<string, string>> = { expiry: 'exp_date', expires: 'exp_date' };
const sortText = (q: LinesQuery) => `${q.orderBy === 'exp_date' ? 'expiry' : q.orderBy}:${q.orderType}`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);
const oneOf = (values: readonly string[]) => values.join(', ');

/** One view of the config, or why it is left out. */
function parseView(name: string, raw: unknown): SavedView | { readonly error: string } {
  // The config is edited by hand: a name or value it echoes may hold a control character, which
  // must not act on the terminal (the flash, stderr) when the problem is said.
  const fail = (field: string | null, what: string) => ({
    // `what` may be a sentence of its own ("A view name takes …"): after the colon it goes on lower-case.
    error: sanitize(
      `View "${name.slice(0, 40)}"${field ? `: ${field}` : ''}: ${what.replace(/^A /, 'a ')}; the view is left out`,
    ),
  });
  const nameProblem = viewNameProblem(name);
  if (nameProblem) return fail(null, nameProblem);
  if (!isObject(raw)) return fail(null, 'expected an object');
  const text = (field: string) => raw[field];
  const status = text('status') ?? DEFAULT_QUERY.status;
  if (typeof status !== 'string' || !(STATUS_VIEWS as readonly string[]).includes(status))
    return fail('status', `expected one of ${oneOf(STATUS_VIEWS)}`);
  const type = text('type') ?? DEFAULT_QUERY.type;
  if (typeof type !== 'string' || !(LINE_TYPES as readonly string[]).includes(type))
    return fail('type', `expected one of ${oneOf(LINE_TYPES)}`);
  const search = text('search') ?? '';
  if (typeof search !== 'string' || search.length > 200)
    return fail('search', 'expected text of at most 200 characters');
  const sort = text('sort') ?? sortText(DEFAULT_QUERY);
  const [field = '', order = 'asc', ...more] = typeof sort === 'string' ? sort.toLowerCase().split(':') : [];
  const orderBy = SORT_NAMES[field] ?? field;
  if (
    typeof sort !== 'string' ||
    !(ORDER_BY as readonly string[]).includes(orderBy) ||
    !(ORDER_TYPES as readonly string[]).includes(order) ||
    more.length
  )
    return fail('sort', 'expected id, username, enabled or expiry, then :asc or :desc (expiry:desc)');
  const columns = text('columns') ?? null;
  if (columns !== null) {
    if (!Array.isArray(columns) || !columns.length) return fail('columns', 'expected a list of columns');
    const unknown = columns.find((c) => typeof c !== 'string' || !COLUMN_IDS.includes(c));
    if (unknown !== undefined)
      return fail('columns', `"${String(unknown).slice(0, 20)}" is not one of ${oneOf(COLUMN_IDS)}`);
  }
  return {
    name,
    query: {
      status: status as LinesQuery['status'],
      type: type as LinesQuery['type'],
      search: search.trim(),
      orderBy: orderBy as LinesQuery['orderBy'],
      orderType: order as LinesQuery['orderType'],
    },
    columns: columns === null ? null : [...new Set(columns as string[])],
  };
}

/** The config's `views`, entry by entry: the good ones in the file's order, and one sentence per bad one. */
export function parseViews(raw: unknown): { views: SavedView[]; problems: string[] } {
  if (raw === undefined) return { views: [], problems: [] };
  if (!isObject(raw))
    return { views: [], problems: ['Views: expected an object of named views; none is used'] };
  const views: SavedView[] = [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const v = parseView(name, value);
    if ('error' in v) problems.push(v.error);
    else views.push(v);
  }
  return { views, problems };
}

/** A view as the config keeps it (what a hand would write: only what differs from the default). */
export function viewJson(view: Omit<SavedView, 'name'>): Record<string, unknown> {
  const q = view.query;
  return {
    ...(q.status !== DEFAULT_QUERY.status ? { status: q.status } : {}),
    ...(q.type !== DEFAULT_QUERY.type ? { type: q.type } : {}),
    ...(q.search ? { search: q.search } : {}),
    sort: sortText(q),
    ...(view.columns ? { columns: [...view.columns] } : {}),
  };
}

/** The config's `searches` for one account: its recent searches, newest last, or why they are left out. */
export function parseSearches(raw: unknown, account: string): { searches: string[]; problem: string | null } {
  const mine = isObject(raw) ? raw[account] : undefined;
  if (raw === undefined || mine === undefined) return { searches: [], problem: null };
  if (!Array.isArray(mine) || mine.some((s) => typeof s !== 'string' || s.length > 200))
    return { searches: [], problem: 'Searches: expected a list of texts; the search history starts empty' };
  return {
    // Recalled into the search field as if typed: what typing could not enter is left out.
    searches: [...new Set((mine as string[]).map((s) => stripForbidden(s).trim()).filter(Boolean))].slice(
      -SEARCH_HISTORY_MAX,
    ),
    problem: null,
  };
}

/**
 * The columns of a column set, in its order, from the browser's columns (the Note column from
 * `notes`); null: the default set, with the Note column when `notes` is given.
 */
export function viewColumns(
  ids: readonly string[] | null,
  notes: ReadonlyMap<string, LineNote> | null,
): readonly Column<LineListItem>[] {
  if (!ids) return lineColumns(notes);
  const all = lineColumns(ids.includes('note') ? (notes ?? new Map()) : null);
  return ids.flatMap((id) => all.filter((c) => c.id === id));
}

/** Saved views in the config, as both front-ends ask for them (app/views-config.ts backs it). */
export interface ViewsApi {
  list(): readonly SavedView[];
  /** Saves (or replaces) a view; an error message when it could not be saved, or null. */
  save(view: SavedView): string | null;
  remove(name: string): string | null;
  /** This account's recent searches, newest last. */
  searches(): readonly string[];
  saveSearches(list: readonly string[]): string | null;
  /** What was left out of the config's views and searches when it was read, one sentence each. */
  readonly problems: readonly string[];
}

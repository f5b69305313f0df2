import type { Line } from '../api/contract';
import { LINE_TYPES, ORDER_BY, SEARCH_MAX } from '../api/contract';
import { typedText } from '../domain/line-form';
import { type Load, loaded } from '../domain/load';
import { describeError } from '../services/describe-error';
import { DEFAULT_QUERY, linesPager } from '../services/lines-query';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectLocalLines } from './notes-slice';
import { createPageCache } from './page-cache';
import { type LineListItem, type LinesPage, type LinesQuery, STATUS_VIEWS } from './types';

/** The fields only single-line responses carry. */
interface LineExtras {
  readonly macaddress: string | null;
  readonly parental_code: string | null;
}

export interface LinesSlice {
  readonly query: LinesQuery;
  readonly offset: number;
  readonly pageSize: number;
  /** The page on screen, as a load: its data is kept while the next page loads (nothing flickers)
   *  and when that fails (the failure shows above it). */
  readonly lines: Load<LinesPage>;
  readonly cursor: number;
  readonly searchOpen: boolean;
  readonly searchDraft: string;
  /** MAC address and parental code by line id, as the last single-line response carried them: list
   *  items omit both, so a page read after a change must not lose them. */
  readonly lineExtras: ReadonlyMap<string, LineExtras>;
  /** When each row of the page on screen was read from the server (epoch ms, its request's start; a
   *  row replaced after a change: that reply's): a change of a row read within a minute is not read
   *  again before it is sent (services/changes/fresh-lines.ts). */
  readonly linesReadAt: ReadonlyMap<string, number>;

  /** One page of a query (the expired view included), without touching the screen: mark-all walks
   *  pages through it. `fresh`: the first page of a walk, so the expired block is found again (a
   *  block found earlier may be out of date, and nothing before the first page could tell). */
  fetchLinesPage: (
    q: LinesQuery,
    offset: number,
    limit: number,
    opts?: { readonly fresh?: boolean; readonly onAnswered?: () => void },
  ) => Promise<LinesPage>;
  loadLines: (opts?: { offset?: number; cursor?: number | 'last'; force?: boolean }) => Promise<void>;
  /** After a change: the changed row in place, no reload (`readAt`: when the server gave it: now). */
  replaceLine: (line: LineListItem, readAt?: number) => void;
  /** A single-line response (a change's line): its MAC address and parental code are kept. */
  rememberLineExtras: (line: LineListItem | Line) => void;
  /** After a delete (or line_not_found): the row goes, and the page refills. */
  removeLine: (id: string) => void;
  /** A change settled (or may have): pages read or asked before it are not shown again. */
  linesChanged: () => void;
  /** The page read again. `afterChange`: a change's own reload, after `linesChanged` (two reloads
   *  for the same change share one request); otherwise the user's refresh: nothing asked before it
   *  is shown. */
  refreshLines: (opts?: { readonly afterChange?: boolean }) => Promise<void>;
  setPageSize: (n: number) => void;
  moveCursor: (delta: number) => void;
  pageNext: () => void;
  pagePrev: () => void;
  firstLine: () => void;
  lastLine: () => void;
  cycleStatus: () => void;
  cycleType: () => void;
  cycleSort: () => void;
  flipOrder: () => void;
  setQuery: (q: Partial<LinesQuery>) => void;
  openSearch: () => void;
  setSearchDraft: (text: string) => void;
  applySearch: () => void;
  clearSearch: () => void;
}

/** The same load (its status and error) with other data: a row changed or gone in the page on screen. */
const withPage = (load: Load<LinesPage>, page: LinesPage): Load<LinesPage> =>
  load.status === 'idle' ? load : { ...load, data: page };

const next = <T>(list: readonly T[], value: T): T => list[(list.indexOf(value) + 1) % list.length]!;

export function createLinesSlice(set: SetState, get: GetState, deps: StoreDeps): LinesSlice {
  const now = deps.now ?? Date.now;
  let seq = 0;
  /** The offset the latest page request is for, until it lands (or fails). */
  let heading: number | null = null;
  /** Where the cursor will be (as a place in the whole list) once that page lands. */
  let headingAt: number | null = null;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  const pager = linesPager(deps.client, now);
  const listPage = pager.page;
  const pages = createPageCache(listPage, now);

  // After a write or a refresh: a renewed line may have left the expired block.
  const forget = () => {
    pages.clear();
    pager.forget();
  };

  const prefetch = (q: LinesQuery, page: LinesPage, limit: number) => {
    if (page.nextOffset !== null) pages.fetch(q, page.nextOffset, limit).catch(() => {});
  };

  const reload = (patch: Partial<LinesQuery>) => {
    set({ query: { ...get().query, ...patch } });
    void get().loadLines({ offset: 0, cursor: 0 });
    // Notes are searched here, not by the server: their lines follow the page (notes-slice.ts).
    void get().findNoteMatches();
  };

  return {
    query: DEFAULT_QUERY,
    offset: 0,
    pageSize: deps.pageSize ?? 20,
    lines: { status: 'idle' },
    cursor: 0,
    searchOpen: false,
    searchDraft: '',
    lineExtras: new Map(),
    linesReadAt: new Map(),

    fetchLinesPage: listPage,

    async loadLines(opts = {}) {
      const id = ++seq;
      const { query, pageSize } = get();
      const offset = Math.max(0, opts.offset ?? get().offset);
      heading = offset;
      const want = opts.cursor ?? get().cursor;
      headingAt = offset + (want === 'last' ? pageSize - 1 : want);
      if (opts.force) pages.expire();
      if (!pages.has(query, offset, pageSize))
        set({ lines: { status: 'loading', data: loaded(get().lines) } });
      try {
        const fetched = await pages.fetch(query, offset, pageSize);
        if (id !== seq) return; // a newer request owns the screen
        // A page past the end (its lines deleted since): the last page that has lines instead.
        const end = Math.max(0, Math.floor((fetched.totalHits - 1) / pageSize) * pageSize);
        if (fetched.lines.length === 0 && end < offset) {
          await get().loadLines({ offset: end, cursor: 'last' });
          return;
        }
        heading = null;
        headingAt = null;
        const { page, readAt } = pages.landed(fetched);
        const last = Math.max(0, page.lines.length - 1);
        const want = opts.cursor === 'last' ? last : (opts.cursor ?? get().cursor);
        set({
          lines: { status: 'ready', data: page },
          linesReadAt: readAt,
          offset,
          cursor: Math.min(Math.max(0, want), last),
        });
        prefetch(query, fetched, pageSize);
      } catch (err) {
        if (id !== seq) return;
        heading = null;
        headingAt = null;
        deps.logError?.('loadLines', err);
        set({ lines: { status: 'error', error: describeError(err), data: loaded(get().lines) } });
      }
    },

    rememberLineExtras(line) {
      if (!('macaddress' in line)) return;
      const extras = new Map(get().lineExtras);
      extras.set(line.id, { macaddress: line.macaddress, parental_code: line.parental_code });
      set({ lineExtras: extras });
    },

    replaceLine(line, readAt = now()) {
      forget();
      // A page request sent before this reply may land after it: it shows this row, not its own.
      pages.written(line, readAt);
      get().rememberLineExtras(line);
      get().updateLocalMatch(line.id, line);
      const page = loaded(get().lines);
      if (!page) return;
      const shown = page.lines.some((l) => l.id === line.id);
      set({
        lines: withPage(get().lines, {
          ...page,
          lines: page.lines.map((l) => (l.id === line.id ? line : l)),
        }),
        ...(shown ? { linesReadAt: new Map(get().linesReadAt).set(line.id, readAt) } : {}),
      });
      // A detail screen showing this line shows the fresh one (with MAC and parental code).
      get().refreshDetailView(line, readAt);
    },

    removeLine(id) {
      forget();
      pages.drop(id);
      get().updateLocalMatch(id, null);
      const page = loaded(get().lines);
      if (page?.lines.some((l) => l.id === id)) {
        set({
          lines: withPage(get().lines, {
            ...page,
            lines: page.lines.filter((l) => l.id !== id),
            totalHits: Math.max(0, page.totalHits - 1),
          }),
        });
      }
      if (get().marked.has(id)) get().unmark(id);
      get().closeDetailView(id);
      void get().loadLines({ force: true });
    },

    linesChanged: () => forget(),

    async refreshLines(opts = {}) {
      if (!opts.afterChange) forget();
      // The lines found by note are part of the screen: a lookup that failed is tried again.
      if (get().localMatches?.load.status === 'error') void get().findNoteMatches();
      await get().loadLines({ force: true });
    },

    setPageSize(n) {
      const size = Math.max(1, Math.min(100, Math.floor(n)));
      const { pageSize, offset, cursor, lines } = get();
      const page = loaded(lines);
      if (size === pageSize) return;
      // A cursor on a line found by note (under the page) counts as the page's last line.
      const absolute = offset + Math.min(cursor, Math.max(0, (page?.lines.length ?? 1) - 1));
      const newOffset = Math.floor(absolute / size) * size;
      set({ pageSize: size });
      if (lines.status !== 'idle') void get().loadLines({ offset: newOffset, cursor: absolute - newOffset });
      else set({ offset: newOffset, cursor: absolute - newOffset });
    },

    // Moves count from where the cursor is going, not where it is: a held ↓ that crosses a page edge
    // keeps moving while the next page loads (every key lands; only the last page asked is shown).
    moveCursor(delta) {
      const { cursor, offset, pageSize } = get();
      const page = loaded(get().lines);
      if (!page) return;
      // The lines found by their note sit under the page: entered from the last page's last row.
      const local = selectLocalLines(get()).length;
      const n = page.lines.length;
      if (local && headingAt === null && (cursor >= n || (page.nextOffset === null && cursor + delta >= n))) {
        set({ cursor: Math.max(0, Math.min(n + local - 1, cursor + delta)) });
        return;
      }
      const from = headingAt ?? offset + cursor;
      // The end: what the server counts, or this page's last line when it says no page follows.
      const end =
        page.nextOffset === null && headingAt === null
          ? offset + page.lines.length - 1
          : Math.max(0, page.totalHits - 1);
      const to = Math.max(0, Math.min(end, from + delta));
      if (headingAt === null && to >= offset && to < offset + page.lines.length) {
        set({ cursor: to - offset });
        return;
      }
      // A page boundary on the list's own grid when the page is on it; otherwise the next or
      // previous page as the server gave its offsets.
      const onGrid = offset % pageSize === 0;
      const target = onGrid
        ? Math.floor(to / pageSize) * pageSize
        : to >= offset + page.lines.length
          ? (page.nextOffset ?? offset)
          : to < offset
            ? (page.previousOffset ?? 0)
            : offset;
      void get().loadLines({ offset: target, cursor: to - target });
    },

    // A page move while a page loads counts from the page on its way, not the one on screen: ten
    // PgDn pressed quickly move ten pages (only the last request's page is shown).
    pageNext() {
      const { pageSize } = get();
      const page = loaded(get().lines);
      if (!page) return;
      if (heading === null) {
        if (page.nextOffset != null) void get().loadLines({ offset: page.nextOffset });
      } else if (heading + pageSize < page.totalHits) void get().loadLines({ offset: heading + pageSize });
    },
    pagePrev() {
      const { pageSize } = get();
      const page = loaded(get().lines);
      if (!page) return;
      if (heading === null) {
        if (page.previousOffset != null) void get().loadLines({ offset: page.previousOffset });
      } else if (heading > 0) void get().loadLines({ offset: Math.max(0, heading - pageSize) });
    },
    firstLine() {
      if (get().offset === 0) set({ cursor: 0 });
      else void get().loadLines({ offset: 0, cursor: 0 });
    },
    lastLine() {
      const { pageSize } = get();
      const page = loaded(get().lines);
      if (!page) return;
      const lastOffset = Math.max(0, Math.floor((page.totalHits - 1) / pageSize) * pageSize);
      if (lastOffset === get().offset) set({ cursor: Math.max(0, page.lines.length - 1) });
      else void get().loadLines({ offset: lastOffset, cursor: 'last' });
    },

    cycleStatus: () => reload({ status: next(STATUS_VIEWS, get().query.status) }),
    cycleType: () => reload({ type: next(LINE_TYPES, get().query.type) }),
    cycleSort: () => reload({ orderBy: next(ORDER_BY, get().query.orderBy) }),
    flipOrder: () => reload({ orderType: get().query.orderType === 'asc' ? 'desc' : 'asc' }),
    setQuery: (q) => reload(q),

    // A new search starts empty (the applied one stays in the status line until this one applies):
    // typing after `/` never appends to the last term.
    openSearch() {
      set({ searchOpen: true, searchDraft: '' });
    },
    setSearchDraft(raw) {
      // The field holds what the list accepts: typing past the limit stops there (the field says so).
      const text = [...typedText(raw)].slice(0, SEARCH_MAX).join('');
      set({ searchDraft: text });
      clearTimeout(searchTimer);
      // Results follow typing after a pause, not on every keystroke.
      searchTimer = setTimeout(() => {
        if (get().searchDraft.trim() !== get().query.search) reload({ search: get().searchDraft.trim() });
      }, deps.searchDebounceMs ?? 250);
      searchTimer.unref?.();
    },
    applySearch() {
      clearTimeout(searchTimer);
      const search = get().searchDraft.trim();
      set({ searchOpen: false });
      if (search) get().rememberSearch(search);
      if (search !== get().query.search) reload({ search });
    },
    clearSearch() {
      clearTimeout(searchTimer);
      const had = get().query.search !== '';
      set({ searchOpen: false, searchDraft: '' });
      if (had) reload({ search: '' });
    },
  };
}

/** The line under the cursor, if any: a line of the page, or one found by its note under it. */
export const selectCurrentLine = (
  s: { lines: Load<LinesPage>; cursor: number } & Parameters<typeof selectLocalLines>[0],
): LineListItem | undefined => {
  const page = loaded(s.lines);
  return page?.lines[s.cursor] ?? (page ? selectLocalLines(s)[s.cursor - page.lines.length] : undefined);
};

/** The column the lines are sorted by: the expired view is always sorted by expiry. */
export const sortedBy = (q: LinesQuery) => (q.status === 'expired' ? 'exp_date' : q.orderBy);

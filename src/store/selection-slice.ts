import type { LineListItem } from '../api/contract';
import { counted, countText, creditsText } from '../domain/format';
import { namesText, parsePasteList } from '../domain/paste-list';
import { describeError } from '../services/describe-error';
import { walkWhole } from '../services/page-walk';
import { ambiguityText, lookupPasted } from '../services/paste-lookup';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectCurrentLine } from './lines-slice';
import { loaded } from './types';

export interface MarkedLine {
  readonly id: string;
  readonly username: string;
  /**
   * The line as it was when marked, as much of it as a mark is read for: a bulk job (`toBulkLine`),
   * the marks view's columns and a message export. Its start and creation dates are not kept (null).
   */
  readonly line: LineListItem;
}

/**
 * Hostnames repeat across an account's lines, but each parsed item has its own copy of the text
 * (3.8 MB for 100,000 marks in a snapshot): a mark shares one. Bounded: a server with a hostname
 * per line costs no more than before.
 */
const hostnames = new Map<string, string>();
const sharedHost = (h: string | null) => {
  if (h === null) return null;
  const kept = hostnames.get(h);
  if (kept !== undefined) return kept;
  if (hostnames.size < 1_000) hostnames.set(h, h);
  return h;
};

/**
 * A mark, compact: `A` keeps 100,000 of them. A parsed item holds its fields outside the object
 * and two dates no mark reads (≈ 610 bytes a line in a heap snapshot); this copy has one fixed
 * shape and the fields a mark needs (≈ 250).
 */
const mark = (l: LineListItem): MarkedLine => ({
  id: l.id,
  username: l.username,
  line: {
    id: l.id,
    hostname: sharedHost(l.hostname),
    username: l.username,
    password: l.password,
    label: l.label,
    enabled: l.enabled,
    connections: l.connections,
    is_trial: l.is_trial,
    exp_date: l.exp_date,
    start_date: null,
    created_at: null,
  },
});
/** Progress of a walk reaches the screen at most this often (each update is a frame). */
export const MARKING_PROGRESS_MS = 100;

export interface SelectionSlice {
  /** Marked lines by id; kept across pages, filters and searches. */
  readonly marked: ReadonlyMap<string, MarkedLine>;
  /** While `A` walks every page: lines fetched so far of the total. */
  readonly markingAll: { readonly lines: number; readonly total: number } | null;
  readonly marksCursor: number;
  openMarks: () => void;
  moveMarksCursor: (delta: number) => void;
  toggleMark: () => void;
  /** Marks or unmarks one line (a view other than the browser: renewals). */
  toggleMarkLine: (line: LineListItem) => void;
  /** Marks every one of `lines`, or unmarks them all when every one is marked already. */
  toggleMarkLines: (lines: readonly LineListItem[]) => void;
  togglePage: () => void;
  markAllMatching: () => Promise<void>;
  /** A pasted list of usernames or ids: marks each line found (looked up across pages), names the
   *  ones not found. While it runs, the mark-all key stops it. */
  markPasted: (text: string) => Promise<void>;
  clearMarks: () => void;
  unmark: (id: string) => void;
  /** Marks each of `lines` (kept marked if it is): the lines an interrupted job never sent. */
  markLines: (lines: readonly LineListItem[]) => void;
}

export function createSelectionSlice(set: SetState, get: GetState, deps: StoreDeps): SelectionSlice {
  let markAllSeq = 0;
  const now = deps.now ?? Date.now;
  /** Adds `found` to the marks: the map itself when nothing was marked (no copy of 100,000). */
  const withMarks = (found: Map<string, MarkedLine>) => {
    const before = get().marked;
    if (!before.size) return found;
    const marked = new Map(before);
    for (const [k, v] of found) marked.set(k, v);
    return marked;
  };
  return {
    marked: new Map(),
    markingAll: null,
    marksCursor: 0,
    openMarks() {
      set({ marksCursor: 0 });
      get().pushView({ id: 'marks' });
    },
    moveMarksCursor(delta) {
      set({ marksCursor: Math.max(0, Math.min(get().marked.size - 1, get().marksCursor + delta)) });
    },

    toggleMark() {
      const line = selectCurrentLine(get());
      if (!line) return;
      const marked = new Map(get().marked);
      if (marked.has(line.id)) marked.delete(line.id);
      else marked.set(line.id, mark(line));
      set({ marked });
      get().moveCursor(1);
    },

    toggleMarkLine(line) {
      const marked = new Map(get().marked);
      if (marked.has(line.id)) marked.delete(line.id);
      else marked.set(line.id, mark(line));
      set({ marked });
    },

    toggleMarkLines(lines) {
      if (!lines.length) return;
      const marked = new Map(get().marked);
      const all = lines.every((l) => marked.has(l.id));
      for (const l of lines) {
        if (all) marked.delete(l.id);
        else marked.set(l.id, mark(l));
      }
      set({ marked });
      get().notify(`${all ? 'Unmarked' : 'Marked'} ${counted(lines.length, 'line')}`, 'info');
    },

    togglePage() {
      const lines = loaded(get().lines)?.lines ?? [];
      if (!lines.length) return;
      const marked = new Map(get().marked);
      const all = lines.every((l) => marked.has(l.id));
      for (const l of lines) {
        if (all) marked.delete(l.id);
        else marked.set(l.id, mark(l));
      }
      set({ marked });
      get().notify(
        all ? `Unmarked ${lines.length} lines on this page` : `Marked ${lines.length} lines on this page`,
        'info',
      );
    },

    /**
     * Fetches every page of the current filter (100 at a time) and marks each line; `A` again stops
     * it (nothing is marked then: a partial set would surprise). A list that changes under the walk
     * is walked again (services/page-walk.ts), twice at most, then nothing is marked and it says so;
     * paging the server gets wrong stops it with the reason.
     */
    async markAllMatching() {
      if (get().markingAll) {
        markAllSeq++;
        set({ markingAll: null });
        return get().notify('Marking stopped; nothing marked', 'info');
      }
      const id = ++markAllSeq;
      const q = get().query;
      set({ markingAll: { lines: 0, total: loaded(get().lines)?.totalHits ?? 0 } });
      let last = now();
      const done = deps.heavyWork?.();
      try {
        const found = await walkWhole(
          (offset, limit, fresh, answered) =>
            get().fetchLinesPage(q, offset, limit, { fresh, ...(answered ? { onAnswered: answered } : {}) }),
          () => new Map<string, MarkedLine>(),
          (m, page) => {
            for (const l of page.lines) m.set(l.id, mark(l));
          },
          {
            cancelled: () => id !== markAllSeq,
            // The next page is asked for before this one is marked: the server works meanwhile.
            prefetch: () => true,
            onPage: (p) => {
              if (id === markAllSeq && now() - last >= MARKING_PROGRESS_MS) {
                last = now();
                set({ markingAll: { lines: p.lines, total: p.total } });
              }
            },
          },
        );
        if (id !== markAllSeq) return;
        const marked = withMarks(found);
        set({ marked, markingAll: null });
        get().notify(
          `Marked ${creditsText(found.size)} lines matching the filter (${creditsText(marked.size)} marked in all)`,
          'success',
        );
      } catch (err) {
        if (id === markAllSeq) {
          set({ markingAll: null });
          get().notify(`Marking stopped, nothing marked: ${describeError(err)}`, 'error');
        }
      } finally {
        done?.();
      }
    },

    async markPasted(text) {
      const { items, cut } = parsePasteList(text);
      if (!items.length) return get().notify('Nothing to mark in the paste', 'info');
      if (get().markingAll) markAllSeq++;
      const id = ++markAllSeq;
      set({ markingAll: { lines: 0, total: items.length } });
      let last = now();
      try {
        const total = loaded(get().account)?.lines_count;
        const { found, ambiguous, missing } = await lookupPasted(deps.client, items, {
          ...(total !== undefined ? { total } : {}),
          cancelled: () => id !== markAllSeq,
          progress: (n) => {
            if (id === markAllSeq && now() - last >= MARKING_PROGRESS_MS) {
              last = now();
              set({ markingAll: { lines: n, total: items.length } });
            }
          },
        });
        if (id !== markAllSeq) return;
        const marked = new Map(get().marked);
        for (const l of found.values()) marked.set(l.id, mark(l));
        set({ marked, markingAll: null });
        const over = cut ? ` (the first ${countText(items.length)} taken; ${countText(cut)} left out)` : '';
        // A name several lines answer to ignoring case is named with them, never guessed.
        const clashes = [...ambiguous].map(([item, lines]) => ambiguityText(item, lines));
        const short = missing.length + ambiguous.size > 0;
        get().notify(
          short
            ? `Marked ${countText(found.size)} of ${countText(items.length)} pasted${over}${missing.length ? `; not found: ${namesText(missing)}` : ''}${clashes.length ? `; ${namesText(clashes, 2)}` : ''}`
            : `Marked all ${countText(found.size)} pasted${over}`,
          short ? 'warning' : 'success',
        );
      } catch (err) {
        if (id === markAllSeq) {
          set({ markingAll: null });
          get().notify(`Marking stopped, nothing marked: ${describeError(err)}`, 'error');
        }
      }
    },

    clearMarks() {
      set({ marked: new Map() });
    },
    markLines(lines) {
      if (!lines.length) return;
      const marked = new Map(get().marked);
      for (const l of lines) marked.set(l.id, mark(l));
      set({ marked });
    },
    unmark(id) {
      const marked = new Map(get().marked);
      marked.delete(id);
      set({ marked, marksCursor: Math.max(0, Math.min(get().marksCursor, marked.size - 1)) });
    },
  };
}

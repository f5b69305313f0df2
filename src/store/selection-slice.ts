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
  /** The line as it was when marked: a bulk preview starts from it. */
  readonly line: LineListItem;
}

const mark = (l: LineListItem): MarkedLine => ({ id: l.id, username: l.username, line: l });

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
      let last = 0;
      try {
        const found = await walkWhole(
          (offset, limit, fresh) => get().fetchLinesPage(q, offset, limit, { fresh }),
          () => new Map<string, MarkedLine>(),
          (m, page) => {
            for (const l of page.lines) m.set(l.id, mark(l));
          },
          {
            cancelled: () => id !== markAllSeq,
            onPage: (p) => {
              // Progress at most ten times a second.
              if (id === markAllSeq && Date.now() - last > 100) {
                last = Date.now();
                set({ markingAll: { lines: p.lines, total: p.total } });
              }
            },
          },
        );
        if (id !== markAllSeq) return;
        const marked = new Map(get().marked);
        for (const [k, v] of found) marked.set(k, v);
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
      }
    },

    async markPasted(text) {
      const { items, cut } = parsePasteList(text);
      if (!items.length) return get().notify('Nothing to mark in the paste', 'info');
      if (get().markingAll) markAllSeq++;
      const id = ++markAllSeq;
      set({ markingAll: { lines: 0, total: items.length } });
      let last = 0;
      try {
        const total = loaded(get().account)?.lines_count;
        const { found, ambiguous, missing } = await lookupPasted(deps.client, items, {
          ...(total !== undefined ? { total } : {}),
          cancelled: () => id !== markAllSeq,
          progress: (n) => {
            if (id === markAllSeq && Date.now() - last > 100) {
              last = Date.now();
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

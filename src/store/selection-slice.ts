import type { LineListItem } from '../api/contract';
import { counted, countText, creditsText } from '../domain/format';
import { Marks, MarksBuilder } from '../domain/marks';
import { namesText, parsePasteList } from '../domain/paste-list';
import { describeError } from '../services/describe-error';
import { walkWhole } from '../services/page-walk';
import {
  ambiguityText,
  lookupPasted,
  type Unsettled,
  unsettledText,
  unsettledWhy,
} from '../services/paste-lookup';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectCurrentLine } from './lines-slice';
import { loaded } from './types';

/** Progress of a walk reaches the screen at most this often (each update is a frame). */
const MARKING_PROGRESS_MS = 100;

export interface SelectionSlice {
  /** Marked lines by id, in the order marked; kept across pages, filters and searches. */
  readonly marked: Marks;
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
  /** Marks each line not marked, unmarks it otherwise. */
  const toggled = (marked: Marks, line: LineListItem) =>
    marked.has(line.id) ? marked.without([line.id]) : marked.with([line]);
  /** Marks every one of `lines`, or unmarks them all when every one is marked already. */
  const toggledAll = (marked: Marks, lines: readonly LineListItem[]) => {
    const all = lines.every((l) => marked.has(l.id));
    return { all, marked: all ? marked.without(lines.map((l) => l.id)) : marked.with(lines) };
  };
  return {
    marked: Marks.none,
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
      set({ marked: toggled(get().marked, line) });
      get().moveCursor(1);
    },

    toggleMarkLine(line) {
      set({ marked: toggled(get().marked, line) });
    },

    toggleMarkLines(lines) {
      if (!lines.length) return;
      const { all, marked } = toggledAll(get().marked, lines);
      set({ marked });
      get().notify(`${all ? 'Unmarked' : 'Marked'} ${counted(lines.length, 'line')}`, 'info');
    },

    togglePage() {
      const lines = loaded(get().lines)?.lines ?? [];
      if (!lines.length) return;
      const { all, marked } = toggledAll(get().marked, lines);
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
      const expected = loaded(get().lines)?.totalHits ?? 0;
      set({ markingAll: { lines: 0, total: expected } });
      let last = now();
      const done = deps.heavyWork?.();
      try {
        const found = await walkWhole(
          (offset, limit, fresh, answered) =>
            get().fetchLinesPage(q, offset, limit, { fresh, ...(answered ? { onAnswered: answered } : {}) }),
          // Room for the lines the list says it has: no column grown and copied along the walk.
          () => new MarksBuilder(Math.min(expected, 1_000_000)),
          (m, page) => {
            m.add(page.lines);
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
        const marked = get().marked.withMarks(found.build());
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
        const got = await lookupPasted(deps.client, items, {
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
        const { found, ambiguous, missing } = got;
        set({ marked: get().marked.with([...found.values()]), markingAll: null });
        // "Not found" only of what is proven absent; the rest by why (the one wording of each).
        const absent = missing.filter((i) => !unsettledWhy(got, i));
        const why = (w: Unsettled) => {
          const these = missing.filter((i) => unsettledWhy(got, i) === w);
          return these.length ? `; ${unsettledText(w, undefined, got.nameless)}: ${namesText(these)}` : '';
        };
        const over = cut ? ` (the first ${countText(items.length)} taken; ${countText(cut)} left out)` : '';
        // A name several lines answer to ignoring case is named with them, never guessed.
        const clashes = [...ambiguous].map(([item, lines]) => ambiguityText(item, lines));
        const short = missing.length + ambiguous.size > 0;
        get().notify(
          short
            ? `Marked ${countText(found.size)} of ${countText(items.length)} pasted${over}${absent.length ? `; not found: ${namesText(absent)}` : ''}${why('unreached')}${why('unreadable')}${why('unidentified')}${clashes.length ? `; ${namesText(clashes, 2)}` : ''}`
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
      set({ marked: Marks.none });
    },
    markLines(lines) {
      set({ marked: get().marked.with(lines) });
    },
    unmark(id) {
      const marked = get().marked.without([id]);
      set({ marked, marksCursor: Math.max(0, Math.min(get().marksCursor, marked.size - 1)) });
    },
  };
}

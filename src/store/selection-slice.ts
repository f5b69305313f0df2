import type { LineListItem } from '../api/contract';
import type { GetState, SetState, StoreDeps } from './deps';
import { describeError } from './describe-error';
import { listParams, selectCurrentLine } from './lines-slice';

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
  readonly markingAll: boolean;
  readonly marksCursor: number;
  openMarks: () => void;
  moveMarksCursor: (delta: number) => void;
  toggleMark: () => void;
  togglePage: () => void;
  markAllMatching: () => Promise<void>;
  clearMarks: () => void;
  unmark: (id: string) => void;
}

export function createSelectionSlice(set: SetState, get: GetState, deps: StoreDeps): SelectionSlice {
  let markAllSeq = 0;
  return {
    marked: new Map(),
    markingAll: false,
    marksCursor: 0,
    openMarks() {
      set({ screens: [...get().screens, { id: 'marks' }], marksCursor: 0 });
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

    togglePage() {
      const lines = get().page?.lines ?? [];
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

    /** Fetches every page of the current filter (100 at a time) and marks each line. */
    async markAllMatching() {
      const id = ++markAllSeq;
      const q = get().query;
      const found = new Map<string, MarkedLine>();
      set({ markingAll: true });
      try {
        for (let offset: number | null = 0; offset !== null; ) {
          const page = await deps.client.listLines(listParams(q, offset, 100));
          if (id !== markAllSeq) return;
          for (const l of page.lines) found.set(l.id, mark(l));
          offset = page.nextOffset;
        }
        const marked = new Map(get().marked);
        for (const [k, v] of found) marked.set(k, v);
        set({ marked, markingAll: false });
        get().notify(
          `Marked ${found.size} lines matching the filter (${marked.size} marked in all)`,
          'success',
        );
      } catch (err) {
        if (id === markAllSeq) {
          set({ markingAll: false });
          get().notify(`Marking stopped: ${describeError(err)}`, 'error');
        }
      }
    },

    clearMarks() {
      set({ marked: new Map() });
    },
    unmark(id) {
      const marked = new Map(get().marked);
      marked.delete(id);
      set({ marked, marksCursor: Math.max(0, Math.min(get().marksCursor, marked.size - 1)) });
    },
  };
}

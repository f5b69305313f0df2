import type { GetState, SetState, StoreDeps } from './deps';
import { describeError } from './describe-error';
import { listParams, selectCurrentLine } from './lines-slice';

export interface MarkedLine {
  readonly id: string;
  readonly username: string;
}

export interface SelectionSlice {
  /** Marked lines by id; kept across pages, filters and searches. */
  readonly marked: ReadonlyMap<string, MarkedLine>;
  readonly markingAll: boolean;
  toggleMark: () => void;
  togglePage: () => void;
  markAllMatching: () => Promise<void>;
  clearMarks: () => void;
}

export function createSelectionSlice(set: SetState, get: GetState, deps: StoreDeps): SelectionSlice {
  let markAllSeq = 0;
  return {
    marked: new Map(),
    markingAll: false,

    toggleMark() {
      const line = selectCurrentLine(get());
      if (!line) return;
      const marked = new Map(get().marked);
      if (marked.has(line.id)) marked.delete(line.id);
      else marked.set(line.id, { id: line.id, username: line.username });
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
        else marked.set(l.id, { id: l.id, username: l.username });
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
      const found = new Map<string, { id: string; username: string }>();
      set({ markingAll: true });
      try {
        for (let offset: number | null = 0; offset !== null; ) {
          const page = await deps.client.listLines(listParams(q, offset, 100));
          if (id !== markAllSeq) return;
          for (const l of page.lines) found.set(l.id, { id: l.id, username: l.username });
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
  };
}

import type { GetState, SetState, StoreDeps } from './deps';
import { type DrawnForState, drawnForOf } from './drawn-for';
import type { Flash, Line, LineListItem, ScreenId, Tone, View, ViewId } from './types';
import { isScreen, navigated, popped, pushed, ROOT, topView, without } from './view-stack';

export interface UiSlice {
  /** The view stack (store/view-stack.ts): screens, then the dialogs over them; the first is always
   *  the lines browser. */
  readonly views: readonly View[];
  readonly flash: Flash | null;
  readonly showPassword: boolean;
  readonly quitRequested: boolean;
  /** Where each long list is scrolled to (first row shown); clamped again where it is drawn. */
  readonly scroll: Readonly<Record<ScrollArea, number>>;
  /**
   * Each long list's count of items in view as last drawn (a page key moves by a page, a scroll stops
   * where the last ones fill it), with what it was drawn for (what the list shows: drawn-for.ts, a
   * dialog and its phase, the journal's filter, help's scopes) and at which terminal size (null:
   * before the store knew it). Read only through `drawnCount`: a count drawn for another (the last
   * dialog's, another filter's) or at another size (the frame before a resize) is no count.
   */
  readonly drawn: Readonly<Partial<Record<PagedArea, DrawnRows>>>;
  /** The terminal's size the frames are drawn at, set by the app (ui/use-terminal-size.ts) as the
   *  terminal says it changed, before a frame at the new size is drawn; null until it is first set. */
  readonly terminalSize: TerminalSize | null;
  /** Drawn for a screen reader (set by the app, ui/App.tsx): a row of a list is then a sentence that
   *  may wrap, so what fits depends on which rows are in view (store/drawn-for.ts). */
  readonly spoken: boolean;
  /** The caret of the text being edited, with the target and text it belongs to (text-target.ts). */
  readonly caret: Caret | null;
  /** The confirm dialog on screen as the key gate sees it (keys/confirm-gate.ts). */
  readonly guard: ConfirmGuard | null;
  /** The store's clock (`deps.now`): when keys arrive and dialogs are drawn, for the key gate. */
  clock: () => number;
  /** A confirm dialog was drawn (a layout effect): `hidden` says what it could not show, or null. */
  guardDrawn: (surface: string, hidden: string | null) => void;
  /** The dialog is gone, or shows something else to confirm: the next one is read afresh. */
  guardGone: (surface: string) => void;
  /** The key gate held a key back: typed ahead of the dialog ('dropped'), or too soon ('early'). */
  guardHeld: (surface: string, what: 'dropped' | 'early') => void;
  /** Top-level screens (1–6): the lines browser at the bottom, the chosen one above it. */
  navigate: (id: Exclude<ScreenId, 'detail'>) => void;
  /** A view on top (a screen under the dialogs on top, a dialog over everything): view-stack.ts. */
  pushView: (view: View) => void;
  /** Closes the topmost view `id`, wherever it is: a slice closes its own dialog, never another's. */
  closeView: (id: ViewId) => void;
  /** `readAt`: when the line was read from the server, if known (a change of it is then not read again
   *  within a minute of it). */
  openDetail: (line: LineListItem | Line, readAt?: number) => void;
  /** A detail view of this line shows the fresh one (with MAC and parental code). */
  refreshDetailView: (line: LineListItem | Line, readAt?: number) => void;
  /** The line is gone: no detail view of it stays. */
  closeDetailView: (lineId: string) => void;
  /**
   * Esc/q: the view on top goes, back to the one below as it was. On the first screen Esc clears an
   * applied search, and q (`quitAtRoot`) quits when pressed twice within 3 s: the first answers 'armed'.
   */
  back: (quitAtRoot: boolean) => 'armed' | 'quit' | undefined;
  notify: (text: string, tone?: Tone) => void;
  togglePassword: () => void;
  quit: () => void;
  /**
   * Ctrl-C: quits, except during a bulk job, where the first press only asks ('armed': the caller
   * says what quitting does to the job) and a second within a few seconds quits.
   */
  quitDuringJob: () => 'armed' | 'quit';
  setCaret: (caret: Caret) => void;
  /** Moves a list by `delta` rows, within 0 … `total` − the rows it shows as drawn for what it shows
   *  now at the size now (`drawnCountOf`), so the offset never goes past the window's end: a key back
   *  moves what is in view at once. Without that count (a count of another size or list is none) a
   *  move forward waits for it; a move back never passes the end. */
  scrollBy: (area: ScrollArea, delta: number, total: number) => void;
  /** A list back to its first row (it is opened, or shows something else). */
  scrollToStart: (area: ScrollArea) => void;
  /** Said by a list when it is drawn: how many rows it shows, what for (see `drawn`) and at
   *  which terminal size (the store's as it was drawn). */
  setPageRows: (area: PagedArea, rows: number, drawnFor: string, at: TerminalSize | null) => void;
  /** The terminal is now this size: every list's count drawn at another is no count until redrawn. */
  setTerminalSize: (size: TerminalSize) => void;
  /** The app is drawn for a screen reader, or not (`spoken`). */
  setSpoken: (on: boolean) => void;
}

/**
 * What the key gate knows of the confirm dialog on screen. `surface` is what a confirm would
 * confirm (keys/confirm-gate.ts `confirmSurface`); a guard of another surface is stale.
 */
interface ConfirmGuard {
  readonly surface: string;
  /** When it was drawn with its line, cost and balance all on screen; null: not yet, or not whole. */
  readonly shownAt: number | null;
  /** Why it cannot be confirmed at this terminal size, or null. */
  readonly hidden: string | null;
  /** Keys typed in the same read as the key that opened it: dropped. */
  readonly dropped: number;
  /** A confirm key came too soon or at the tail of a burst: it asks for the key again. */
  readonly early: boolean;
}

/** The lists scrolled by an offset kept here (`scroll`). */
type ScrollArea = 'help' | 'journal' | 'bulk' | 'output';
/** The lists whose rows in view are counted as drawn (`drawn`): the scrolled ones, and those whose
 *  window follows a cursor kept in their slice. */
export type PagedArea = ScrollArea | 'renewals' | 'find' | 'message';

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** A list's count as drawn: the rows in view, what for, and at which terminal size. */
interface DrawnRows {
  readonly rows: number;
  readonly drawnFor: string;
  readonly at: TerminalSize | null;
}

const sameSize = (a: TerminalSize | null | undefined, b: TerminalSize | null | undefined): boolean =>
  a === b || (!!a && !!b && a.columns === b.columns && a.rows === b.rows);

/** What a list's count is read with: the counts, what and at which size each was drawn for, the size now. */
type PageRowsState = Pick<UiSlice, 'drawn' | 'terminalSize'>;

/** A list's count of rows in view (`rows`), or, while there is none for what it shows now at the size
 *  now, why (`why`: the view is still being drawn, a key waits for the frame). */
type DrawnCount =
  | { readonly rows: number; readonly why: null }
  | { readonly rows: null; readonly why: string };

/**
 * The one reader of a list's stored count (page keys, scroll ends, the scroll keys' offer, the hook
 * that says the count is this draw's): the rows `area` shows as drawn for `drawnFor` (what it shows
 * now: a dialog and its phase, a list and its filter) at the terminal's size now. A count drawn for
 * another (the last dialog's, the list before a filter changed) or at another size (the frame before
 * a resize) is no count, so a key is not offered a frame too early on it, and says why: the view is
 * being drawn (at its new size), which the next frame ends.
 */
export const drawnCount = (s: PageRowsState, area: PagedArea, drawnFor: string): DrawnCount => {
  const d = s.drawn[area];
  if (d === undefined || s.terminalSize === null || d.drawnFor !== drawnFor)
    return { rows: null, why: 'The view is being drawn: try again' };
  if (!sameSize(d.at, s.terminalSize))
    return { rows: null, why: 'The view is being drawn at its new size: try again' };
  return { rows: d.rows, why: null };
};

/** `area`'s count of rows in view as drawn for what it shows now (drawn-for.ts) at the size now. */
export const drawnCountOf = (s: DrawnForState & PageRowsState, area: PagedArea): DrawnCount =>
  drawnCount(s, area, drawnForOf(s, area));

/**
 * What a page key moves `area` by: the rows it shows as drawn now, less one kept in sight (one at
 * least); 0 while there is no count for the size now (the key is not offered then: `scrollsNothing`).
 */
export const pageRows = (s: DrawnForState & PageRowsState, area: PagedArea): number => {
  const { rows } = drawnCountOf(s, area);
  return rows === null ? 0 : Math.max(1, rows - 1);
};

/** Why a list's scroll keys move nothing now, or null: some of its `total` items in view, not all. */
const scrollsNothing = (inView: DrawnCount, total: number, what: string): string | null =>
  inView.rows === null
    ? inView.why
    : inView.rows === 0
      ? `No ${what} is in view: nothing to scroll`
      : inView.rows < total
        ? null
        : `Every ${what} is in view: nothing to scroll`;

/** Why `area`'s scroll and page keys move nothing now (`scrollsNothing` on its count as drawn for what
 *  it shows now at the size now: `drawnCountOf`), or null: the one rule every long list's keys use. */
export const areaScrollsNothing = (
  s: DrawnForState & PageRowsState,
  area: PagedArea,
  total: number,
  what: string,
): string | null => scrollsNothing(drawnCountOf(s, area), total, what);

interface Caret {
  readonly key: string;
  readonly value: string;
  readonly at: number;
}

const FLASH_MS = 8_000;
/** How long a first q at the root waits for the second. */
const QUIT_AGAIN_MS = 3_000;

const freshGuard = (surface: string): ConfirmGuard => ({
  surface,
  shownAt: null,
  hidden: null,
  dropped: 0,
  early: false,
});

export function createUiSlice(set: SetState, get: GetState, deps: StoreDeps): UiSlice {
  const clock = deps.now ?? Date.now;
  let flashId = 0;
  let quitArmedAt: number | null = null;
  let jobQuitArmedAt: number | null = null;
  let flashTimer: ReturnType<typeof setTimeout> | undefined;
  return {
    views: ROOT,
    flash: null,
    showPassword: false,
    quitRequested: false,
    caret: null,
    scroll: { help: 0, journal: 0, bulk: 0, output: 0 },
    drawn: {},
    terminalSize: null,
    spoken: false,
    guard: null,
    clock,

    guardDrawn(surface, hidden) {
      const g = get().guard;
      const same = g?.surface === surface ? g : freshGuard(surface);
      // Armed from the first frame that shows it whole; a frame that shows less disarms it.
      const shownAt = hidden ? null : (same.shownAt ?? clock());
      if (g === same && g.hidden === hidden && g.shownAt === shownAt) return;
      set({ guard: { ...same, hidden, shownAt } });
    },
    guardGone(surface) {
      if (get().guard?.surface === surface) set({ guard: null });
    },
    guardHeld(surface, what) {
      const g = get().guard;
      const same = g?.surface === surface ? g : freshGuard(surface);
      set({ guard: what === 'dropped' ? { ...same, dropped: same.dropped + 1 } : { ...same, early: true } });
    },

    scrollBy(area, delta, total) {
      const now = get().scroll[area];
      // The last window starts where the rows in view (as drawn now) end with the last item; with no
      // count yet, no further than the offset now.
      const { rows } = drawnCountOf(get(), area);
      const last = rows === null ? now : Math.max(0, total - Math.max(1, rows));
      const next = Math.max(0, Math.min(last, now + delta));
      if (next !== now) set({ scroll: { ...get().scroll, [area]: next } });
    },
    scrollToStart(area) {
      if (get().scroll[area] !== 0) set({ scroll: { ...get().scroll, [area]: 0 } });
    },

    setPageRows(area, rows, drawnFor, at) {
      // The count, what and at which size it was drawn for: one record, never a count for another
      // or at another size.
      const d = get().drawn[area];
      if (d && d.rows === rows && d.drawnFor === drawnFor && sameSize(d.at, at)) return;
      set({ drawn: { ...get().drawn, [area]: { rows, drawnFor, at } } });
    },
    setTerminalSize(size) {
      if (sameSize(get().terminalSize, size)) return;
      set({ terminalSize: size });
    },

    setSpoken(on) {
      if (get().spoken !== on) set({ spoken: on });
    },

    setCaret(caret) {
      set({ caret });
    },

    navigate(id) {
      set({ views: navigated(get().views, id) });
    },
    pushView(view) {
      const views = pushed(get().views, view);
      if (views !== get().views) set({ views });
    },
    closeView(id) {
      const views = without(get().views, id);
      if (views !== get().views) set({ views });
    },
    openDetail(line, readAt) {
      set({
        views: pushed(get().views, { id: 'detail', line, ...(readAt !== undefined ? { readAt } : {}) }),
        showPassword: false,
      });
    },
    refreshDetailView(line, readAt) {
      const views = get().views;
      // The line's read time goes with it: a line of unknown age has none (read again before a change).
      const fresh: View = { id: 'detail', line, ...(readAt !== undefined ? { readAt } : {}) };
      if (views.some((v) => v.id === 'detail' && v.line.id === line.id))
        set({ views: views.map((v) => (v.id === 'detail' && v.line.id === line.id ? fresh : v)) });
    },
    closeDetailView(lineId) {
      const views = get().views.filter((v) => !(v.id === 'detail' && v.line.id === lineId));
      if (views.length !== get().views.length) set({ views });
    },
    back(quitAtRoot) {
      const { views } = get();
      if (views.length > 1) {
        // A password shown on a screen is hidden again when the screen goes.
        set({ views: popped(views), ...(isScreen(topView({ views })) ? { showPassword: false } : {}) });
        return;
      }
      if (!quitAtRoot) {
        // Esc on the first screen undoes an applied search (the one thing there to go back from).
        if (get().query.search) get().clearSearch();
        return;
      }
      // q on the first screen asks once: a stray q (a paste, a key meant for another window) must
      // not end the session. Ctrl-C quits at once.
      if (quitArmedAt !== null && clock() - quitArmedAt < QUIT_AGAIN_MS) {
        set({ quitRequested: true });
        return 'quit';
      }
      quitArmedAt = clock();
      return 'armed';
    },
    notify(text, tone = 'info') {
      const id = ++flashId;
      set({ flash: { text, tone, id } });
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => {
        if (get().flash?.id === id) set({ flash: null });
      }, FLASH_MS);
      flashTimer.unref?.();
    },
    togglePassword() {
      set({ showPassword: !get().showPassword });
    },
    quit() {
      set({ quitRequested: true });
    },
    quitDuringJob() {
      // A stray Ctrl-C (meant for another window, or a copy's) must not stop a job spending credits
      // without a word; quitting is still two keys away.
      const running = get().bulk?.phase === 'running';
      if (running && (jobQuitArmedAt === null || clock() - jobQuitArmedAt >= QUIT_AGAIN_MS)) {
        jobQuitArmedAt = clock();
        return 'armed';
      }
      jobQuitArmedAt = null;
      set({ quitRequested: true });
      return 'quit';
    },
  };
}

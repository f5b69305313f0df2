import type { LineListItem } from '../api/contract';
import { pageStop } from '../domain/scroll';
import { type FindItem, findItemsOf, rowStops } from '../present/list-layouts';
import { describeError } from '../services/describe-error';
import {
  cursorIndex,
  type FindAnswer,
  type FindCursor,
  type FindGroup,
  type FindRow,
  findRowsOf,
} from '../services/find-lines';
import {
  ambiguityText,
  fitsSearch,
  lookupPasted,
  unsettledText,
  unsettledWhy,
} from '../services/paste-lookup';
import type { AppState } from './app-store';
import type { GetState, LineToOpen, SetState, StoreDeps } from './deps';
import { type Load, loaded } from './types';
import { drawnCountOf } from './ui-slice';

const IDLE: Load<never> = { status: 'idle' };

export interface FindSlice {
  /** The text of the last `:find`. */
  readonly findText: string;
  /** One group per source, in the sources' order: searching, its matches, or why it failed. */
  readonly findGroups: readonly FindGroup[];
  /** Why the profiles could not be read (only the service in use was searched), or null. */
  readonly findProblem: string | null;
  readonly findCursor: FindCursor | null;
  /** `:find TEXT`: the find screen, every source searched; answers land as they come. */
  findAcross: (text: string) => Promise<void>;
  /** `r` on the find screen: the same text again. */
  findAgain: () => Promise<void>;
  moveFindCursor: (delta: number) => void;
  /** Enter: a line of the service in use opens here; one of another profile switches to it. */
  openFound: () => void;
  /** After a find's switch: the chosen line, opened once the first load is done (or why not). */
  openLineOnStart: (line: LineToOpen) => Promise<void>;
  /** A typed username or id looked up by the one rule (paste-lookup.ts, across pages), as `linedesk
   *  line` does; what it cannot name (no line, a case-only clash) is said in the flash. */
  lookupLine: (text: string) => Promise<LineListItem | null>;
}

/** Longest text a find sends (a username is at most 30, an id 36). */
const FIND_MAX = 100;

export function createFindSlice(set: SetState, get: GetState, deps: StoreDeps): FindSlice {
  let seq = 0;
  /** The latest `:line` lookup: an older one still walking stops and opens nothing. */
  let lookupSeq = 0;
  let controller: AbortController | null = null;

  const answer = (id: number, a: FindAnswer) => {
    if (id !== seq) return;
    const groups = get().findGroups.map(
      (g): FindGroup =>
        g.source.id !== a.source
          ? g
          : {
              source: g.source,
              load: a.result.ok
                ? { status: 'ready', data: a.result.found }
                : { status: 'error', error: a.result.reason },
            },
    );
    // The cursor is pinned to the first match as soon as there is one: later answers above it do
    // not move what Enter opens.
    const cursor = get().findCursor ?? firstCursor(findRowsOf(groups));
    set({ findGroups: groups, findCursor: cursor });
  };

  const run = async (text: string, keepCursor: boolean) => {
    const api = deps.findAcross;
    if (!api) return get().notify('Find across accounts is not available in this session', 'error');
    controller?.abort();
    const id = ++seq;
    const ctl = new AbortController();
    controller = ctl;
    const { sources, problem } = api.sources();
    const before = get().findGroups;
    // Searched again: each group keeps its last matches (and the cursor its line) until it answers.
    const last = (sourceId: string) => {
      const data = keepCursor
        ? loaded(before.find((g) => g.source.id === sourceId)?.load ?? IDLE)
        : undefined;
      return data ? { data } : {};
    };
    set({
      findText: text,
      findGroups: sources.map((source) => ({ source, load: { status: 'loading', ...last(source.id) } })),
      findProblem: problem,
      findCursor: keepCursor ? get().findCursor : null,
    });
    try {
      await api.search(
        text,
        sources.map((s) => s.id),
        ctl.signal,
        (a) => answer(id, a),
      );
    } catch (err) {
      deps.logError?.('find', err);
    }
    if (id !== seq) return;
    // A source that never answered (an error of ours) must not stay "searching…" for ever.
    const groups = get().findGroups.map(
      (g): FindGroup =>
        g.load.status === 'loading' ? { ...g, load: { status: 'error', error: 'no answer' } } : g,
    );
    set({ findGroups: groups });
    if (controller === ctl) controller = null;
  };

  return {
    findText: '',
    findGroups: [],
    findProblem: null,
    findCursor: null,

    async findAcross(text) {
      const t = [...text.trim()].slice(0, FIND_MAX).join('');
      if (!t) return get().notify('find: a username or id to look for (find smith)', 'error');
      get().navigate('find');
      await run(t, false);
    },

    async findAgain() {
      // The cursor stays on its line, when that line is found again.
      if (get().findText) await run(get().findText, true);
    },

    moveFindCursor(delta) {
      const rows = selectFindRows(get());
      if (!rows.length) return;
      const at = Math.max(0, Math.min(rows.length - 1, cursorIndex(rows, get().findCursor) + delta));
      set({ findCursor: cursorOf(rows[at]!) });
    },

    openFound() {
      const row = selectFoundLine(get());
      if (!row) return;
      if (row.source.isCurrent || !row.source.profile) return get().openDetail(row.line);
      // The find goes along: back from the line there is the find again, not the browser's top.
      get().switchToProfile(row.source.profile, {
        id: row.line.id,
        username: row.line.username,
        find: get().findText,
      });
    },

    async lookupLine(text) {
      // A newer lookup stops this one between requests (a name no line has walks every page); the
      // account's count says what a walk costs, with no first page read to learn it.
      const id = ++lookupSeq;
      const total = loaded(get().account)?.lines_count;
      try {
        const got = await lookupPasted(deps.client, [text], {
          cancelled: () => id !== lookupSeq,
          progress: () => {},
          ...(total !== undefined ? { total } : {}),
        });
        if (id !== lookupSeq) return null;
        const line = got.found.get(text);
        if (line) return line;
        const several = got.ambiguous.get(text);
        // "No line answers" only when proven (the whole list read); else why not, in the one wording.
        const why = unsettledWhy(got, text);
        get().notify(
          several
            ? ambiguityText(text, several)
            : why
              ? `"${text.trim()}" was ${unsettledText(why, undefined, got.nameless)}`
              : `No line answers to "${text.trim()}"`,
          'error',
        );
      } catch (err) {
        get().notify(`Could not look up ${text.trim()}: ${describeError(err)}`, 'error');
      }
      return null;
    },

    async openLineOnStart({ id, username, find }) {
      const where = get().target.label;
      if (find && deps.findAcross) {
        // Beneath the line, the find that chose it, its cursor on the line (now in the profile in use).
        const here = deps.findAcross.sources().sources.find((s) => s.isCurrent);
        get().navigate('find');
        set({ findCursor: here ? { source: here.id, line: id } : null });
        void run(find, true);
      }
      try {
        // By username first (every server's search matches it), the id deciding; then by id, with a
        // walk over the pages for servers whose search does not match ids. A username too long to
        // search for (the request would be refused unsent) goes straight to the id.
        const byName = fitsSearch(username)
          ? await deps.client.listLines({ search: username, limit: 100 })
          : null;
        const line =
          byName?.lines.find((l) => l.id === id) ??
          (await lookupPasted(deps.client, [id], { cancelled: () => false, progress: () => {} })).found.get(
            id,
          );
        if (!line) return get().notify(`Line ${username} (${id}) was not found on ${where}`, 'error');
        get().openDetail(line);
      } catch (err) {
        get().notify(`Could not open line ${username}: ${describeError(err)}`, 'error');
      }
    },
  };
}

const cursorOf = (r: FindRow): FindCursor => ({ source: r.source.id, line: r.line.id });
const firstCursor = (rows: readonly FindRow[]) => (rows[0] ? cursorOf(rows[0]) : null);

/**
 * The find screen's matches in order, its items as drawn (present/list-layouts.ts: each group's
 * heading, its note, its rows) and where its rows are among them: one cache, worked out again only
 * when the groups changed.
 */
let laid: {
  readonly groups: readonly FindGroup[];
  readonly rows: FindRow[];
  readonly items: readonly FindItem[];
  readonly stops: readonly number[];
} | null = null;
function laidOut(groups: readonly FindGroup[]) {
  if (laid?.groups !== groups) {
    const items = findItemsOf(groups);
    laid = { groups, rows: findRowsOf(groups), items, stops: rowStops(items) };
  }
  return laid;
}

/** The find screen's items as drawn and where its rows are among them (the page keys move over them). */
export const selectFindItems = (
  s: Pick<AppState, 'findGroups'>,
): { readonly items: readonly FindItem[]; readonly stops: readonly number[] } => laidOut(s.findGroups);

/** How many matches a page key (`direction`) moves the cursor by: a page of the rows drawn, headings
 *  and notes counted (domain/scroll.ts `pageStop`); 0 while the screen has no count for what it shows. */
export function findPageDelta(s: AppState, direction: 1 | -1): number {
  const { rows } = drawnCountOf(s, 'find');
  if (rows === null) return 0;
  const { stops } = selectFindItems(s);
  const at = cursorIndex(selectFindRows(s), s.findCursor);
  return pageStop(rows, stops, at, direction) - at;
}

/** The find screen's rows (its matches, in order). */
export const selectFindRows = (s: Pick<AppState, 'findGroups'>): FindRow[] => laidOut(s.findGroups).rows;

/** The match under the find screen's cursor. */
export const selectFoundLine = (s: Pick<AppState, 'findGroups' | 'findCursor'>): FindRow | undefined => {
  const rows = selectFindRows(s);
  return rows[cursorIndex(rows, s.findCursor)];
};

import type { LineListItem } from '../api/contract';
import { sanitizeMultiline } from '../api/sanitize';
import { typedText } from '../domain/line-form';
import { describeError } from '../services/describe-error';
import { lookUpNotedEach, NOTE_WALK_PAGES } from '../services/find-lines';
import { passesFilters } from '../services/lines-query';
import { type LineNote, matchNotes, memoryNotes, NOTE_LIMITS, type NoteInput } from '../services/notes';
import { lookupPasted, type Unsettled } from '../services/paste-lookup';
import type { GetState, SetState, StoreDeps } from './deps';
import { type LinesQuery, type Load, loaded } from './types';

type NoteField = keyof NoteInput;
export const NOTE_FIELDS: readonly NoteField[] = ['name', 'phone', 'text'];
export const NOTE_LABELS: Record<NoteField, string> = { name: 'Customer', phone: 'Phone', text: 'Note' };

export interface NoteForm {
  readonly lineId: string;
  readonly username: string;
  readonly values: NoteInput;
  readonly focus: NoteField;
  /** Shown at their fields as the user types (over-long input). */
  readonly errors: Partial<Record<NoteField, string>>;
}

/** Lines found by their note for the applied search that the server's own search does not return. */
interface LocalMatches {
  readonly search: string;
  /** More notes matched than are looked up (LOOKUP_MAX): the search should be narrower. */
  readonly more: boolean;
  /** The noted lines looked up on the service. */
  readonly load: Load<LocalFound>;
}

interface LocalFound {
  readonly lines: readonly LineListItem[];
  /** Matching notes whose line the server no longer has (proven: the whole list was read). */
  readonly gone: number;
  /** Matching notes whose line the lookup did not reach (it walks NOTE_WALK_PAGES at most): not gone. */
  readonly notLookedUp: number;
  /** Matching notes whose line the server lists in a form that does not read: not gone either. */
  readonly unreadable: number;
  /** Matching notes whose line may be one of the items whose id or username did not read: not gone. */
  readonly unidentified: number;
}

export interface NotesSlice {
  /** Every note of this service, as saved (a new map after each save). */
  readonly lineNotes: ReadonlyMap<string, LineNote>;
  readonly noteForm: NoteForm | null;
  /** The lines browser's Note column (saved in the config). */
  readonly noteColumn: boolean;
  readonly localMatches: LocalMatches | null;
  /** Says once what went wrong loading the notes file (a corrupt file set aside), and logs it. */
  reportNotesProblem: () => void;
  openNoteForm: (line: Pick<LineListItem, 'id' | 'username'>) => void;
  setNoteField: (text: string) => void;
  moveNoteFocus: (delta: 1 | -1) => void;
  /** Saves; on failure the form stays open with what was typed and the flash says why. */
  saveNoteForm: () => void;
  closeNoteForm: () => void;
  toggleNoteColumn: () => void;
  /** Looks up the lines whose note matches the applied search (called when the search changes). */
  findNoteMatches: () => Promise<void>;
  /** After a change to a line (null: deleted), a local match shows it as it is now. */
  updateLocalMatch: (id: string, line: LineListItem | null) => void;
}

/** Local matches shown at most: the browser's page gives up these rows (plus a heading) to them. */
export const LOCAL_MAX = 6;
/** Notes looked up at most per search (each may cost requests): one letter must not fetch them all. */
const LOOKUP_MAX = 24;
const CACHE_MS = 60_000;
// A line not found at all cost a walk over every page: not walked again for a while.
const GONE_CACHE_MS = 10 * 60_000;

const overLong = (field: NoteField, value: string): string | null => {
  const n = [...value].length;
  const max = NOTE_LIMITS[field];
  return n > max ? `Too long: at most ${max} characters (${n} now)` : null;
};

/** What the server's search (partial username, exact id) returns itself. */
const serverFinds = (line: LineListItem, search: string) => {
  const q = search.toLowerCase();
  return line.username.toLowerCase().includes(q) || line.id.toLowerCase() === q;
};

/** The local matches on screen for the applied search (at most LOCAL_MAX). */
export const selectLocalLines = (s: {
  localMatches: LocalMatches | null;
  query: LinesQuery;
}): readonly LineListItem[] =>
  s.localMatches?.load.status === 'ready' && s.localMatches.search === s.query.search
    ? s.localMatches.load.data.lines.slice(0, LOCAL_MAX)
    : [];

/** What the last lookup found (kept while the next one runs), or null. */
export const selectLocalFound = (s: { localMatches: LocalMatches | null }): LocalFound | null =>
  (s.localMatches && loaded(s.localMatches.load)) ?? null;

/** Rows the local group takes under the page (its heading included), or 0. Only once the lines are
 *  known: the page changes size once per search, not again when the lookup ends. */
export const selectLocalRows = (s: { localMatches: LocalMatches | null; query: LinesQuery }): number => {
  const n = selectLocalLines(s).length;
  if (n) return 1 + n;
  // None found, some not looked up or not readable: the heading alone says so (neither is absent).
  const m = s.localMatches;
  return m?.load.status === 'ready' &&
    m.search === s.query.search &&
    (m.load.data.notLookedUp || m.load.data.unreadable || m.load.data.unidentified)
    ? 1
    : 0;
};

export function createNotesSlice(set: SetState, get: GetState, deps: StoreDeps): NotesSlice {
  const notes = deps.notes ?? memoryNotes();
  const now = deps.now ?? Date.now;
  let seq = 0;
  // Lines found by id a moment ago: typing "ann", "anna" does not look them up again. `far`: the
  // walk did not reach it, or the server lists it in a form that does not read (not known gone; its
  // walk is not spent again for a while either).
  const known = new Map<string, { line: LineListItem | null; at: number; far?: Unsettled }>();

  const say = (text: string, tone: 'info' | 'success' | 'error') => get().notify(text, tone);

  return {
    lineNotes: notes.all(),
    noteForm: null,
    noteColumn: deps.settings?.read().noteColumn ?? false,
    localMatches: null,

    reportNotesProblem() {
      if (!notes.problem) return;
      deps.logError?.('notes', new Error(notes.problem));
      say(notes.problem, 'error');
    },

    openNoteForm(line) {
      const n = notes.get(line.id);
      set({
        noteForm: {
          lineId: line.id,
          username: line.username,
          values: { name: n?.name ?? '', phone: n?.phone ?? '', text: n?.text ?? '' },
          focus: 'name',
          errors: {},
        },
      });
      get().pushView({ id: 'note' });
    },

    setNoteField(text) {
      const f = get().noteForm;
      if (!f) return;
      // The free text keeps its lines (a pasted address); the other fields are one line.
      const value = f.focus === 'text' ? text.split('\n').map(typedText).join('\n') : typedText(text);
      const errors = { ...f.errors };
      const e = overLong(f.focus, value);
      if (e) errors[f.focus] = e;
      else delete errors[f.focus];
      set({ noteForm: { ...f, values: { ...f.values, [f.focus]: value }, errors } });
    },

    moveNoteFocus(delta) {
      const f = get().noteForm;
      if (!f) return;
      const i = NOTE_FIELDS.indexOf(f.focus);
      set({ noteForm: { ...f, focus: NOTE_FIELDS[(i + delta + NOTE_FIELDS.length) % NOTE_FIELDS.length]! } });
    },

    saveNoteForm() {
      const f = get().noteForm;
      if (!f) return;
      const bad = NOTE_FIELDS.find((k) => overLong(k, f.values[k]));
      if (bad) {
        set({
          noteForm: { ...f, focus: bad, errors: { ...f.errors, [bad]: overLong(bad, f.values[bad])! } },
        });
        return say(`${NOTE_LABELS[bad]}: ${overLong(bad, f.values[bad])}; nothing saved`, 'error');
      }
      const had = notes.get(f.lineId);
      try {
        notes.set(f.lineId, f.values, f.username);
      } catch (err) {
        // Nothing is lost: the form stays open with what was typed.
        deps.logError?.('saveNote', err);
        return say(
          `Note not saved (what you typed is still here): ${sanitizeMultiline(err instanceof Error ? err.message : String(err))}`,
          'error',
        );
      }
      const saved = notes.get(f.lineId);
      set({ lineNotes: notes.all(), noteForm: null });
      get().closeView('note');
      say(
        saved
          ? `Note for ${f.username} saved on this machine`
          : had
            ? `Note for ${f.username} removed`
            : 'Nothing to save: the note is blank',
        saved || had ? 'success' : 'info',
      );
      if (get().query.search) void get().findNoteMatches();
    },

    closeNoteForm() {
      set({ noteForm: null });
      get().closeView('note');
    },

    toggleNoteColumn() {
      const on = !get().noteColumn;
      set({ noteColumn: on });
      const error = deps.settings?.save({ noteColumn: on }) ?? null;
      if (error) say(`Note column ${on ? 'shown' : 'hidden'}, but not saved: ${error}`, 'error');
      else say(`Note column ${on ? 'shown' : 'hidden'} (notes are kept on this machine)`, 'info');
    },

    updateLocalMatch(lineId, line) {
      if (known.has(lineId)) known.set(lineId, { line, at: now() });
      const m = get().localMatches;
      if (m?.load.status !== 'ready' || !m.load.data.lines.some((l) => l.id === lineId)) return;
      const found = m.load.data;
      const lines = line
        ? found.lines.map((l) => (l.id === lineId ? line : l))
        : found.lines.filter((l) => l.id !== lineId);
      set({ localMatches: { ...m, load: { status: 'ready', data: { ...found, lines } } } });
    },

    async findNoteMatches() {
      const id = ++seq;
      const { search } = get().query;
      const all = search ? matchNotes(notes, search) : [];
      const ids = all.slice(0, LOOKUP_MAX);
      if (!ids.length) {
        if (get().localMatches) set({ localMatches: null });
        return;
      }
      const more = all.length > ids.length;
      set({ localMatches: { search, more, load: { status: 'loading' } } });
      const at = now();
      const fresh = (i: string) => {
        const k = known.get(i);
        return k && at - k.at < (k.line ? CACHE_MS : GONE_CACHE_MS) ? k : undefined;
      };
      try {
        const need = ids.filter((i) => !fresh(i));
        if (need.length) {
          // Looked up as a pasted list is: by the username kept with the note (every server's search
          // finds one), else by id; a walk over the pages for the rest, kept short: this runs on
          // every search, and a line deleted long ago must not cost the whole list each time.
          const total = loaded(get().account)?.lines_count;
          const each = await lookUpNotedEach(notes, need, (keys) =>
            lookupPasted(deps.client, keys, {
              // The account's count says what a walk costs: no first page read to learn it.
              ...(total !== undefined ? { total } : {}),
              cancelled: () => id !== seq,
              progress: () => {},
              maxPages: NOTE_WALK_PAGES,
            }),
          );
          if (id !== seq) return;
          for (const [i, got] of each)
            known.set(i, typeof got === 'string' ? { line: null, at, far: got } : { line: got, at });
        }
        const lines = ids.map((i) => fresh(i)?.line ?? null);
        const notLookedUp = ids.filter((i) => fresh(i)?.far === 'unreached').length;
        const unreadable = ids.filter((i) => fresh(i)?.far === 'unreadable').length;
        const unidentified = ids.filter((i) => fresh(i)?.far === 'unidentified').length;
        const q = get().query;
        set({
          localMatches: {
            search,
            more,
            load: {
              status: 'ready',
              data: {
                lines: lines.filter(
                  (l): l is LineListItem => l !== null && !serverFinds(l, search) && passesFilters(l, q, at),
                ),
                gone: lines.filter((l) => l === null).length - notLookedUp - unreadable - unidentified,
                notLookedUp,
                unreadable,
                unidentified,
              },
            },
          },
        });
      } catch (err) {
        if (id !== seq) return;
        deps.logError?.('findNoteMatches', err);
        set({
          localMatches: { search, more, load: { status: 'error', error: describeError(err) } },
        });
      }
    },
  };
}

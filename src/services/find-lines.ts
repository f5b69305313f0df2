import type { LineListItem } from '../api/contract';
import { ApiError, ConfigError, NetworkError, NotAuthorized, TimeoutError } from '../api/errors';
import { countText } from '../domain/format';
import { type Load, loaded } from '../domain/load';
import type { ServiceClient } from './client';
import { describeError } from './describe-error';
import { matchNotes, type Notes } from './notes';
import {
  lookupPasted,
  type PasteLookup,
  resolveInPages,
  type Unsettled,
  unsettledText,
  unsettledWhy,
} from './paste-lookup';

/**
 * Find across accounts, the parts that need no profile: one service searched for a username or an
 * id (`findInService`), and the pure rules (ranking, grouping, the cursor) the find screen uses.
 */

/** A service the find asks: a profile of the config, or the service in use when it is not one. */
export interface FindSource {
  /** Unique among the sources: the profile's name, or "current" for a service that is not a profile. */
  readonly id: string;
  /** The profile's name, or the session's label (SANDBOX, a host). */
  readonly name: string;
  readonly host: string;
  /** The profile to switch to for a line found here; null when this is the service in use. */
  readonly profile: string | null;
  /** The service in use: a line found here opens without a switch. */
  readonly isCurrent: boolean;
}

interface FoundLines {
  /** Exact matches (username or id) first, then partial username matches; at most MAX_PER_SOURCE. */
  readonly lines: readonly LineListItem[];
  /** Matches the service counts (more than `lines` when some were left out). */
  readonly total: number;
  /** What the search could not do, in words (an id looked for in only part of the list). */
  readonly note: string | null;
}

/** What one source answered: the matches, or why it failed. */
export interface FindAnswer {
  readonly source: string;
  readonly result:
    | { readonly ok: true; readonly found: FoundLines }
    | { readonly ok: false; readonly reason: string };
}

/** Find across accounts (`:find`): the app layer makes a client per profile; neither front-end sees a key. */
export interface FindAcrossApi {
  /** The services a find asks (every profile, and the service in use when it is not one), read now;
   *  `problem` says why the profiles could not be read (then only the service in use is listed). */
  sources(): { readonly sources: readonly FindSource[]; readonly problem: string | null };
  /** Searches the sources named (by id), a few at a time, each within a deadline; each answer goes
   *  to `onAnswer` as it lands (a slow one holds up no other). Resolves once every one answered. */
  search(
    text: string,
    sources: readonly string[],
    signal: AbortSignal,
    onAnswer: (answer: FindAnswer) => void,
  ): Promise<void>;
}

export interface FindGroup {
  readonly source: FindSource;
  /** Loading is "searching…", an error "failed: reason". */
  readonly load: Load<FoundLines>;
}

/** Lines listed per source: a find is for a handful, a longer list asks for a narrower text. */
const MAX_PER_SOURCE = 20;
/** Pages walked for an id a server's search does not match (10,000 lines), within the deadline. */
const ID_WALK_PAGES = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Line ids are UUIDs (the interface document): only such a text is looked for by id in a walk. */
export const looksLikeId = (text: string) => UUID.test(text.trim());

const isExact = (l: LineListItem, text: string) =>
  l.id.toLowerCase() === text.toLowerCase() || l.username.toLowerCase() === text.toLowerCase();

/**
 * Exact username or id matches first, then usernames containing the text, then whatever else the
 * server's search matched; server order within each; each line once; at most `max`.
 */
export function rankMatches(
  lines: readonly LineListItem[],
  text: string,
  max = MAX_PER_SOURCE,
): LineListItem[] {
  const t = text.trim().toLowerCase();
  const rank = (l: LineListItem) => (isExact(l, t) ? 0 : l.username.toLowerCase().includes(t) ? 1 : 2);
  const seen = new Set<string>();
  const unique = lines.filter((l) => !seen.has(l.id) && seen.add(l.id));
  return unique
    .map((l, i) => ({ l, i, r: rank(l) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .slice(0, max)
    .map((x) => x.l);
}

/**
 * One service searched: the list endpoint's search (exact and partial matches), and for an id its
 * search did not match (some servers' search matches usernames only) a bounded walk over the pages.
 * `signal` aborts every request (the caller's deadline and a newer search both use it).
 */
export async function findInService(
  client: Pick<ServiceClient, 'listLines'>,
  text: string,
  signal: AbortSignal,
  walkPages = ID_WALK_PAGES,
  notes: Notes | null = null,
): Promise<FoundLines> {
  const t = text.trim();
  const page = await client.listLines({ search: t, limit: 100 }, { signal });
  const found = [...page.lines];
  let total = page.totalHits;
  let note: string | null = null;
  // Items the search matched that do not read: lines there, never a silent "no match".
  const bad = page.unreadable.length;
  const unread = bad
    ? `${countText(bad)} line${bad === 1 ? ' the search matches was' : 's the search matches were'} ${unsettledText('unreadable')}`
    : null;
  const isId = (id: string | null) => id !== null && id.toLowerCase() === t.toLowerCase();
  if (looksLikeId(t) && !found.some((l) => isExact(l, t))) {
    let pages = 0;
    let walked = 0;
    let of = 0;
    try {
      const walk = await resolveInPages(
        { listLines: (q) => client.listLines(q, { signal }) },
        [t, t.toLowerCase()],
        {
          cancelled: () => signal.aborted || pages >= walkPages,
          onPage: (p) => {
            pages = p.pages;
            walked = p.lines;
            of = p.total;
          },
        },
      );
      const hit = walk.found.get(t) ?? walk.found.get(t.toLowerCase());
      if (hit) {
        found.unshift(hit);
        total++;
      } else if (walk.unreadItems.some((u) => isId(u.id))) {
        // The id's walk (its last pass) met an item of that id in a form that does not read.
        // Met unread: a line there (said once: by the search's count when it matched that item too).
        if (!page.unreadable.some((u) => isId(u.id)))
          note = `the id's line was ${unsettledText('unreadable')}`;
      } else if (walk.cut || walked + walk.unread < of)
        // Stopped before the end (or the list gave fewer than it counts): not reached is the stronger
        // reason, whatever the pages read held.
        note = `the id was looked for in the first ${countText(walked)} of ${countText(of)} lines only${signal.aborted ? ' (time limit)' : ''}`;
      else if (walk.idless)
        // The whole list read, but an item whose id did not read may be the id's line.
        note = `the id's line was ${unsettledText('unidentified', undefined, walk.idless)}`;
    } catch (err) {
      // The search's own answer still stands; only the walk for the id stopped.
      if (signal.aborted)
        note = `the id was looked for in the first ${countText(walked)} lines only (time limit)`;
      else note = `the id could not be looked for across the list: ${describeError(err)}`;
    }
  }
  const ranked = rankMatches(found, t);
  const byNote = notes
    ? await linesByNote(client, notes, t, ranked, signal)
    : { lines: [], notLookedUp: 0, unreadable: 0, unidentified: 0 };
  const lines = [...ranked, ...byNote.lines].slice(0, MAX_PER_SOURCE);
  const far = notesUnsettledText(byNote);
  return {
    lines,
    total: Math.max(total + byNote.lines.length, lines.length),
    note: [unread, note, far].filter(Boolean).join('; ') || null,
  };
}

/** Notes looked up at most per find (each may cost a request). */
const NOTE_LOOKUPS = MAX_PER_SOURCE;
/** Pages walked at most for noted lines the search cannot find. */
export const NOTE_WALK_PAGES = 20;

/**
 * `1 line whose note matches was not looked up (the lookup reads 20 pages at most)`, `… was not
 * readable (listed by the server in a form that does not read)` and/or `… was not identified (it may
 * be one of the lines the server listed in a form that does not read)`, joined by "; ", or null: what
 * a notes lookup did not settle, each by its true reason (`unsettledText`; never "not found": only a
 * walk of the whole list proves a line absent). The one sentence of the find, the browser and the
 * commands.
 */
export function notesUnsettledText(
  n: Pick<ByNote, 'notLookedUp' | 'unreadable' | 'unidentified'>,
): string | null {
  const one = (count: number, why: Unsettled) =>
    count
      ? `${countText(count)} line${count === 1 ? ' whose note matches was' : 's whose notes match were'} ${unsettledText(why, why === 'unreached' ? NOTE_WALK_PAGES : undefined)}`
      : '';
  return (
    [one(n.notLookedUp, 'unreached'), one(n.unreadable, 'unreadable'), one(n.unidentified, 'unidentified')]
      .filter(Boolean)
      .join('; ') || null
  );
}

/** The lines found by their note, and how many noted lines the lookup did not settle, by why. */
export interface ByNote {
  readonly lines: readonly LineListItem[];
  /** Noted lines the lookup's walk (NOTE_WALK_PAGES at most) did not reach: not known absent. */
  readonly notLookedUp: number;
  /** Noted lines the server lists in a form that does not read: there, unread. */
  readonly unreadable: number;
  /** Noted lines the whole list read did not show, but that may be one of its items whose id or
   *  username did not read: not known absent either. */
  readonly unidentified: number;
}

/** What a notes lookup is given: the paste lookup's answer. */
type NotesLookup = Pick<PasteLookup, 'found' | 'unreached' | 'unreadable' | 'unidentified'>;

/** What the notes lookup says of one noted line: its line, not settled and why (`Unsettled`), or null: proven absent. */
type NotedLine = LineListItem | Unsettled | null;

/**
 * Each noted line of `ids` (in their order) as `lookup` (the paste lookup, its walk at most
 * NOTE_WALK_PAGES) finds it: by the username kept with its note, else its id, and checked against the
 * id. One the walk did not reach is `'unreached'`, one listed in a form that does not read
 * `'unreadable'`, one that may be an item whose id or username did not read `'unidentified'` (none
 * known absent); one proven absent (the whole list read), or whose kept username names another line
 * now, is null.
 */
export async function lookUpNotedEach(
  notes: Notes,
  ids: readonly string[],
  lookup: (keys: readonly string[]) => Promise<NotesLookup>,
): Promise<Map<string, NotedLine>> {
  const each = new Map<string, NotedLine>();
  if (!ids.length) return each;
  const keyOf = (id: string) => notes.get(id)?.username || id;
  const got = await lookup(ids.map(keyOf));
  for (const id of ids) {
    const line = got.found.get(keyOf(id));
    each.set(id, line?.id === id ? line : unsettledWhy(got, keyOf(id)));
  }
  return each;
}

/**
 * The lines whose note on this machine matches `text` (accents folded, phones by digits), NOTE_LOOKUPS
 * at most and those of `skip` (ids already listed) left out, found by lookUpNotedEach, and how many
 * the lookup did not reach: the one bound and rule of the find and the commands.
 */
export async function lookUpNoted(
  notes: Notes,
  text: string,
  skip: ReadonlySet<string>,
  lookup: (keys: readonly string[]) => Promise<NotesLookup>,
): Promise<ByNote> {
  // Bounded: a search matching many notes, or the note of a line gone, never costs a request per
  // note and a walk of the whole list.
  const ids = matchNotes(notes, text)
    .filter((id) => !skip.has(id))
    .slice(0, NOTE_LOOKUPS);
  const lines: LineListItem[] = [];
  let notLookedUp = 0;
  let unreadable = 0;
  let unidentified = 0;
  for (const got of (await lookUpNotedEach(notes, ids, lookup)).values()) {
    if (got === 'unreached') notLookedUp++;
    else if (got === 'unreadable') unreadable++;
    else if (got === 'unidentified') unidentified++;
    else if (got) lines.push(got);
  }
  return { lines, notLookedUp, unreadable, unidentified };
}

/** The lines whose note matches the text (lookUpNoted), after those the search found. */
function linesByNote(
  client: Pick<ServiceClient, 'listLines'>,
  notes: Notes,
  text: string,
  listed: readonly LineListItem[],
  signal: AbortSignal,
): Promise<ByNote> {
  return lookUpNoted(notes, text, new Set(listed.map((l) => l.id)), (keys) =>
    lookupPasted({ listLines: (q) => client.listLines(q, { signal }) }, keys, {
      cancelled: () => signal.aborted,
      progress: () => {},
      maxPages: NOTE_WALK_PAGES,
    }),
  );
}

/**
 * Why a source failed, in words first (unreachable, bad key, timed out), then the error's own
 * description (never the key: the client's errors are built without it). `deadlineMs` is set when
 * the caller's own deadline for the source passed.
 */
export function findFailure(err: unknown, deadlineMs?: number): string {
  if (deadlineMs !== undefined)
    return `timed out: no complete answer within ${Math.ceil(deadlineMs / 1000)} s`;
  const said = describeError(err);
  if (err instanceof NotAuthorized) return `bad key: ${said}`;
  if (err instanceof ApiError && err.status === 403) return `bad key (refused, 403): ${said}`;
  if (err instanceof NetworkError)
    return `${err.outcome === 'not_sent' ? 'unreachable' : 'connection lost'}: ${said}`;
  if (err instanceof TimeoutError) return `timed out: ${said}`;
  if (err instanceof ConfigError) return `not usable: ${said}`;
  return said;
}

/** A row of the find screen: a line of a source's group. */
export interface FindRow {
  readonly source: FindSource;
  readonly line: LineListItem;
}

/** The cursor is a line of a source, not a position: answers landing above it do not move it. */
export interface FindCursor {
  readonly source: string;
  readonly line: string;
}

/** Every match, group by group in the sources' order (not the order they answered in); a group
 *  searched again keeps its last matches until it answers. */
export function findRowsOf(groups: readonly FindGroup[]): FindRow[] {
  return groups.flatMap((g) => (loaded(g.load)?.lines ?? []).map((line) => ({ source: g.source, line })));
}

/** Where the cursor is among the rows: its own row, or the first when it has none (yet). */
export function cursorIndex(rows: readonly FindRow[], cursor: FindCursor | null): number {
  const at = cursor ? rows.findIndex((r) => r.source.id === cursor.source && r.line.id === cursor.line) : -1;
  return at < 0 ? 0 : at;
}

/** The sources in the order they are listed: the service in use first, then the profiles by name. */
export function orderSources(sources: readonly FindSource[]): FindSource[] {
  return [...sources].sort(
    (a, b) => Number(b.isCurrent) - Number(a.isCurrent) || a.name.localeCompare(b.name),
  );
}

import { PLACEHOLDER, sanitize, stripSequences } from '../api/sanitize';
import { csvText } from '../domain/csv';

/**
 * Per-line notes (customer name, phone, free text), kept on this machine per service: the API has no
 * field for them. The app layer keeps them in a file; the store sees only this interface.
 */
export interface LineNote {
  readonly name: string;
  readonly phone: string;
  readonly text: string;
  /** ISO 8601, UTC. */
  readonly updatedAt: string;
  /** The line's username when the note was saved: every server's search finds a username, not every
   *  one an id. A hint for finding the line, checked against the id. */
  readonly username?: string;
}

export type NoteInput = Omit<LineNote, 'updatedAt' | 'username'>;

export interface Notes {
  get(lineId: string): LineNote | undefined;
  /** Null, or a note blank once cleaned, removes. Throws when it cannot be saved (nothing changes). */
  set(lineId: string, note: NoteInput | null, username?: string): void;
  all(): ReadonlyMap<string, LineNote>;
  /** A problem found when loading (corrupt file set aside), said once to the user; null when none. */
  readonly problem: string | null;
}

export const NOTE_LIMITS = { name: 60, phone: 30, text: 500 } as const;

const BREAKS = /[\t\n\v\f\r\u2028\u2029]+/g;

/**
 * User-typed text made terminal-safe and single-line. sanitize() stays the one list of what is
 * forbidden; here its placeholders are dropped, since the user sees the note only after saving it.
 */
function cleanText(text: string): string {
  return sanitize(stripSequences(text).replace(BREAKS, ' ')).replaceAll(PLACEHOLDER, '').trim();
}

/** Like cleanText, line by line: a note's free text keeps its lines (blank ones at the ends dropped,
 *  at most one blank line in a row). */
function cleanLines(text: string): string {
  return stripSequences(text)
    .split(/\r\n|[\n\v\f\r\u2028\u2029]/)
    .map(cleanText)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** By code points, so an emoji is never cut in half. */
const cap = (text: string, max: number) => Array.from(text).slice(0, max).join('').trimEnd();

/** The note as stored, or null when nothing is left of it. */
function cleanNote(note: NoteInput): NoteInput | null {
  const out = {
    name: cap(cleanText(note.name), NOTE_LIMITS.name),
    phone: cap(cleanText(note.phone), NOTE_LIMITS.phone),
    text: cap(cleanLines(note.text), NOTE_LIMITS.text),
  };
  return out.name || out.phone || out.text ? out : null;
}

const same = (a: NoteInput | undefined, b: NoteInput | null) =>
  !a || !b ? !a && !b : a.name === b.name && a.phone === b.phone && a.text === b.text;

interface NotesOptions {
  readonly now?: () => Date;
  readonly problem?: string | null;
  /** Persists the whole set before it is used; throwing leaves the notes as they were. */
  readonly save?: (all: ReadonlyMap<string, LineNote>) => void;
}

/** The behaviour shared by every kind of notes; only where they are kept differs. */
export function createNotes(
  initial: Iterable<readonly [string, LineNote]>,
  options: NotesOptions = {},
): Notes {
  const { now = () => new Date(), problem = null, save } = options;
  let notes: ReadonlyMap<string, LineNote> = new Map(
    [...initial].flatMap(([id, n]) => {
      const c = cleanNote(n);
      const username = n.username ? cleanText(n.username) : '';
      return c ? [[id, { ...c, updatedAt: n.updatedAt, ...(username ? { username } : {}) }] as const] : [];
    }),
  );
  return {
    problem,
    get: (lineId) => notes.get(lineId),
    all: () => notes,
    set(lineId, input, username) {
      const clean = input && cleanNote(input);
      const old = notes.get(lineId);
      const name = username ? cleanText(username) : old?.username;
      // Saving an unchanged form neither writes nor moves the line up the "recent" order.
      if (same(old, clean) && name === old?.username) return;
      const next = new Map(notes);
      if (clean)
        next.set(lineId, { ...clean, updatedAt: now().toISOString(), ...(name ? { username: name } : {}) });
      else next.delete(lineId);
      save?.(next);
      notes = next;
    },
  };
}

export function memoryNotes(initial: Record<string, LineNote> = {}, now?: () => Date): Notes {
  return createNotes(Object.entries(initial), now ? { now } : {});
}

/** Letters no decomposition splits, written as a keyboard without them would. */
const PLAIN: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
/**
 * Built from PLAIN's keys rather than written as a literal: esbuild escapes the keys but leaves a
 * regex literal's characters as they are, and one above U+00FF has V8 hold the chunk's whole source
 * at two bytes a character.
 */
const PLAIN_LETTERS = new RegExp(`[${Object.keys(PLAIN).join('')}]`, 'g');

/** Lower case without accents: "José Müller" is "jose muller", so `muller` finds it. */
const foldText = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(PLAIN_LETTERS, (c) => PLAIN[c] ?? c);

const PHONE_TEXT = /^[\d\s\-.()+/]+$/;
/** A phone's digits, and those without a national "(0)" ("+44 (0)7700…" is dialled 447700…). */
const phoneDigits = (phone: string) => {
  const all = phone.replace(/\D/g, '');
  const intl = phone.replace(/\(\s*0\s*\)/g, '').replace(/\D/g, '');
  return all === intl ? [all] : [all, intl];
};
const time = (iso: string) => Date.parse(iso) || 0;

/**
 * Line ids whose note contains `text`, most recently updated first: case and accents folded, and a
 * text made of phone characters matched against each phone by its digits ("+44 (20) 7946-0958" is
 * found by "2079460958" and by "+44 20 7946 0958").
 */
export function matchNotes(notes: Notes, text: string): string[] {
  const q = foldText(text.trim());
  if (!q) return [];
  const qPhone = PHONE_TEXT.test(q) ? q.replace(/\D/g, '') : '';
  const hits: [string, LineNote][] = [];
  for (const [id, n] of notes.all()) {
    const found =
      foldText(n.name).includes(q) ||
      foldText(n.text).includes(q) ||
      foldText(n.phone).includes(q) ||
      (qPhone !== '' && phoneDigits(n.phone).some((d) => d.includes(qPhone)));
    if (found) hits.push([id, n]);
  }
  return hits
    .sort(([a, x], [b, y]) => time(y.updatedAt) - time(x.updatedAt) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([id]) => id);
}

/** "name · phone · text" for a table cell; blank parts left out. */
export function noteSummary(note: LineNote | undefined): string {
  if (!note) return '';
  return [note.name, note.phone, note.text].map(cleanText).filter(Boolean).join(' · ');
}

/** The notes as CSV (line id, customer, phone, text, updated), cells guarded against formulas. */
export function notesCsv(notes: ReadonlyMap<string, LineNote>): string {
  const rows = [...notes]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, n]) => [id, n.name, n.phone, n.text, n.updatedAt]);
  return csvText([['line_id', 'customer', 'phone', 'text', 'updated'], ...rows]);
}

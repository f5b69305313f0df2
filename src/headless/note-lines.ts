import type { LineListItem } from '../api/contract';
import { NOTE_LOOKUPS, NOTE_WALK_PAGES } from '../services/find-lines';
import { matchNotes } from '../services/notes';
import type { Services } from './session';

/**
 * The lines whose note on this machine matches `search` (accents folded, phones by digits), as the
 * browser's `/` adds them under its page: found by the username kept with the note, else the id, and
 * checked against the id; a note of a line gone is left out. `skip`: ids already listed.
 */
export async function linesByNote(
  services: Pick<Services, 'notes' | 'lookup'>,
  search: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<LineListItem[]> {
  const { notes } = services;
  // Bounded as the find's: a search matching many notes, or the note of a line gone, never costs a
  // request per note and a walk of the whole list.
  const ids = matchNotes(notes, search)
    .filter((id) => !skip.has(id))
    .slice(0, NOTE_LOOKUPS);
  if (!ids.length) return [];
  const keyOf = (id: string) => notes.get(id)?.username || id;
  const { found } = await services.lookup(ids.map(keyOf), { maxPages: NOTE_WALK_PAGES });
  return ids.flatMap((id) => {
    const line = found.get(keyOf(id));
    return line?.id === id ? [line] : [];
  });
}

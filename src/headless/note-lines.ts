import { type ByNote, lookUpNoted, NOTE_LOOKUPS, NOTE_WALK_PAGES } from '../services/find-lines';
import { matchNotes } from '../services/notes';
import type { Services } from './session';

/**
 * The lines whose note on this machine matches `search` (accents folded, phones by digits), as the
 * browser's `/` adds them under its page: found by the username kept with the note, else the id, and
 * checked against the id; a note of a line gone is left out, and one whose line the lookup did not
 * reach is counted (`notLookedUp`: not known to be gone). `skip`: ids already listed.
 */
export async function linesByNote(
  services: Pick<Services, 'notes' | 'lookup'>,
  search: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<ByNote> {
  const { notes } = services;
  // Bounded as the find's: a search matching many notes, or the note of a line gone, never costs a
  // request per note and a walk of the whole list.
  const ids = matchNotes(notes, search)
    .filter((id) => !skip.has(id))
    .slice(0, NOTE_LOOKUPS);
  return lookUpNoted(notes, ids, (keys) => services.lookup(keys, { maxPages: NOTE_WALK_PAGES }));
}

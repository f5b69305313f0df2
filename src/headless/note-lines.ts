import { type ByNote, lookUpNoted, NOTE_WALK_PAGES } from '../services/find-lines';
import type { Services } from './session';

/**
 * The lines whose note on this machine matches `search`, as the browser's `/` adds them under its
 * page (lookUpNoted: a note of a line gone is left out, one whose line the lookup did not reach is
 * counted, `notLookedUp`: not known to be gone). `skip`: ids already listed.
 */
export function linesByNote(
  services: Pick<Services, 'notes' | 'lookup'>,
  search: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<ByNote> {
  return lookUpNoted(services.notes, search, skip, (keys) =>
    services.lookup(keys, { maxPages: NOTE_WALK_PAGES }),
  );
}

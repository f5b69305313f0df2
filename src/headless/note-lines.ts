import { fileNotes, notesPath } from '../app/notes-file';
import type { AppStore } from '../store/app-store';
import { matchNotes } from '../store/notes';
import type { LineListItem } from '../store/types';
import type { Ctx, StoreHelp } from './session';

/**
 * The lines whose note on this machine matches `search` (accents folded, phones by digits), as the
 * browser's `/` adds them under its page: found by the username kept with the note, else the id, and
 * checked against the id; a note of a line gone is left out. `skip`: ids already listed.
 */
export async function linesByNote(
  ctx: Ctx,
  store: AppStore,
  help: StoreHelp,
  search: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<LineListItem[]> {
  const notes = fileNotes(notesPath(ctx.dirs.data, store.getState().target.id));
  const ids = matchNotes(notes, search).filter((id) => !skip.has(id));
  if (!ids.length) return [];
  const keyOf = (id: string) => notes.get(id)?.username || id;
  const { found } = await help.lookup(ids.map(keyOf));
  return ids.flatMap((id) => {
    const line = found.get(keyOf(id));
    return line?.id === id ? [line] : [];
  });
}

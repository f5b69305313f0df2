import { chmodSync, constants, copyFileSync, existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { lazySchema } from '../api/contract/lazy';
import { createNotes, type LineNote, type Notes } from '../services/notes';
import { writeFileAtomic } from './atomic-file';
import { sha256Hex } from './sha256';

/** One file per service, so a profile's notes never show against another service's lines. */
export function notesPath(dataDir: string, targetId: string): string {
  const slug = targetId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  // The slug is for people; the hash keeps ids apart that slug alike ("profile:Work", "profile:work").
  const hash = sha256Hex(targetId).slice(0, 12);
  return join(dataDir, 'notes', `${slug || 'target'}-${hash}.json`);
}

// Lengths are not checked here: the store caps them, and an over-long note is still worth keeping.
const Entry = lazySchema(() =>
  z.object({
    name: z.string(),
    phone: z.string(),
    text: z.string(),
    updatedAt: z.iso.datetime(),
    username: z.string().optional(),
  }),
);
// Entries are checked one by one below, so one bad note never costs the others.
const NotesFile = lazySchema(() =>
  z.object({ version: z.literal(1), notes: z.record(z.string(), z.unknown()) }),
);

interface Loaded {
  readonly notes: [string, LineNote][];
  readonly problem: string | null;
  /** Writing would destroy something not kept elsewhere: saves are refused for this session. */
  readonly readOnly: boolean;
}

/**
 * Notes as JSON, rewritten whole and atomically on each change. A file that cannot be read as notes
 * is moved aside, never overwritten or deleted: they are the user's own words, with no copy on a server.
 */
export function fileNotes(path: string, now = () => new Date()): Notes {
  const loaded = load(path, now);
  return createNotes(loaded.notes, {
    now,
    problem: loaded.problem,
    save(all) {
      if (loaded.readOnly) throw new Error(`Notes are not saved this session: ${loaded.problem}`);
      const notes = Object.fromEntries(all);
      writeFileAtomic(path, `${JSON.stringify({ version: 1, notes }, null, 2)}\n`);
    },
  });
}

function load(path: string, now: () => Date): Loaded {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { notes: [], problem: null, readOnly: false };
    return { notes: [], problem: `Notes could not be read from ${path} (${reason(err)}).`, readOnly: true };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    json = undefined;
  }
  const file = NotesFile.safeParse(json);
  if (!file.success) {
    const aside = keepCopy(path, now, 'move');
    return typeof aside === 'string'
      ? { notes: [], problem: `The notes file was unreadable; it was kept as ${aside}.`, readOnly: false }
      : {
          notes: [],
          problem: `The notes file ${path} is unreadable and could not be set aside (${aside.error}).`,
          readOnly: true,
        };
  }
  const notes: [string, LineNote][] = [];
  let bad = 0;
  for (const [id, value] of Object.entries(file.data.notes)) {
    const entry = Entry.safeParse(value);
    if (id && entry.success) notes.push([id, entry.data]);
    else bad++;
  }
  if (bad === 0) return { notes, problem: null, readOnly: false };
  // The next save drops the bad entries: the file as it was is copied first.
  const what = bad === 1 ? '1 note was' : `${bad} notes were`;
  const aside = keepCopy(path, now, 'copy');
  return typeof aside === 'string'
    ? {
        notes,
        problem: `${what} unreadable and left out; the file as it was is kept as ${aside}.`,
        readOnly: false,
      }
    : {
        notes,
        problem: `${what} unreadable in ${path}, and no copy could be kept (${aside.error}).`,
        readOnly: true,
      };
}

/** `<path>.corrupt-<timestamp>`, with a counter when that name is taken; never over another file. */
function keepCopy(path: string, now: () => Date, how: 'move' | 'copy'): string | { error: string } {
  const stamp = now().toISOString().replace(/[:.]/g, '-');
  try {
    for (let i = 0; ; i++) {
      const aside = `${path}.corrupt-${stamp}${i ? `-${i}` : ''}`;
      if (existsSync(aside)) continue;
      // COPYFILE_EXCL fails rather than overwrite; the move checks first (rename would replace).
      if (how === 'copy') copyFileSync(path, aside, constants.COPYFILE_EXCL);
      else renameSync(path, aside);
      chmodSync(aside, 0o600);
      return aside;
    }
  } catch (err) {
    return { error: reason(err) };
  }
}

const reason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? String(err);

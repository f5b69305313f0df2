import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import type { Journal, JournalEntry } from '../services/changes/journal';
import { toCsv } from '../services/changes/journal';

const money = z.number().finite().nullable().catch(null);
/**
 * One journal line as written; a line of another shape (`{}`, `null`, `42`, an edit by hand) is
 * skipped and named. What a reader needs is required (when, what, the outcome); the rest falls back.
 */
const Entry = z.object({
  opId: z.string().optional().catch(undefined),
  time: z.string().refine((t) => !Number.isNaN(Date.parse(t)), 'not a time'),
  target: z.string().catch(''),
  operation: z.enum(['create', 'trial', 'extend', 'upgrade', 'unsuspend', 'delete']),
  lineId: z.string().nullable().catch(null),
  username: z.string().nullable().catch(null),
  quotedCost: money,
  estimate: z.boolean().catch(false),
  deducedCredits: money,
  newBalance: money,
  charge: z.enum(['reply', 'balance', 'share', 'unknown']).optional().catch(undefined),
  outcome: z.enum(['applied', 'rejected', 'unknown', 'not applied', 'not sent']),
  detail: z.string().optional().catch(undefined),
  bouquets: z.array(z.number().int()).optional().catch(undefined),
  service: z.string().optional().catch(undefined),
  months: z.number().int().optional().catch(undefined),
  connectionsBefore: z.number().int().optional().catch(undefined),
  connectionsAfter: z.number().int().optional().catch(undefined),
  expiryBefore: z.string().optional().catch(undefined),
  expiryAfter: z.string().optional().catch(undefined),
});

/** The bytes before the read offset are still those read there (the file was only appended to). */
function sealed(fd: number, s: ReadState): boolean {
  if (s.offset === 0) return true;
  if (s.seal.length === 0) return false;
  const now = Buffer.alloc(s.seal.length);
  return readSync(fd, now, 0, now.length, s.offset - now.length) === now.length && now.equals(s.seal);
}

/** Drops the keys a fallback left undefined, so an entry reads back as it was written. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** What is known of the journal's bytes read so far (only whole lines: up to the last newline). */
interface ReadState {
  ino: number;
  /** Bytes read: always just after a newline. */
  offset: number;
  /** The last bytes before `offset`: the file rewritten in place (not appended) reads whole again. */
  seal: Buffer;
  lines: number;
  entries: JournalEntry[];
  /** Lines that are not entries, by line number (sorted when said). */
  bad: { line: number; why: string }[];
  /** Lines that are not JSON with no later line yet: a crash's torn end, damage once a line follows. */
  torn: number[];
}

const SEAL = 64;
const fresh = (ino = 0): ReadState => ({
  ino,
  offset: 0,
  seal: Buffer.alloc(0),
  lines: 0,
  entries: [],
  bad: [],
  torn: [],
});

/** One journal line: an entry, a reason it is not one, or not JSON (null). */
function entryOf(line: string): JournalEntry | string | null {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = Entry.safeParse(json);
  if (parsed.success) return defined(parsed.data) as JournalEntry;
  const issue = parsed.error.issues[0];
  return `${issue?.path.length ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'not an entry'}`;
}

/**
 * The journal as JSONL in the data directory, appended (one line per change) as it happens, so a
 * crash loses nothing already written. A line that is not an entry (torn by a crash, or valid JSON of
 * another shape) is skipped when reading and named in `skipped()`, never fatal. Each read parses only
 * what was appended since the last (a long journal is read by every account read for drift); a file
 * replaced (an editor's save), cut, or changed in its last bytes is read whole again. (An edit in
 * place further back that keeps the size is read at the next start: nothing but a hand edit does it.)
 */
export function fileJournal(file: string): Journal {
  let skipped: string[] = [];
  let state = fresh();
  const read = (): JournalEntry[] => {
    skipped = [];
    let buf: Buffer;
    try {
      if (!existsSync(file)) {
        state = fresh();
        return [];
      }
      const fd = openSync(file, 'r');
      try {
        const { ino, size } = fstatSync(fd);
        if (ino !== state.ino || size < state.offset || !sealed(fd, state)) state = fresh(ino);
        buf = Buffer.alloc(size - state.offset);
        for (let at = 0; at < buf.length; ) {
          const n = readSync(fd, buf, at, buf.length - at, state.offset + at);
          if (n === 0) break;
          at += n;
        }
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      // A journal that cannot be read (permissions, a directory in its place) is named, never fatal.
      state = fresh();
      skipped = [
        `${file} could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): no entry shown`,
      ];
      return [];
    }
    // Whole lines only go into the state (a newline is one byte: the cut never splits a character).
    const whole = buf.lastIndexOf(0x0a) + 1;
    const later = (s: ReadState) => {
      for (const line of s.torn) s.bad.push({ line, why: 'not JSON' });
      s.torn = [];
    };
    if (whole > 0) {
      const text = buf.toString('utf8', 0, whole).split('\n');
      text.pop();
      for (const line of text) {
        state.lines++;
        if (!line.trim()) continue;
        later(state);
        const e = entryOf(line);
        if (e === null) state.torn.push(state.lines);
        else if (typeof e === 'string') state.bad.push({ line: state.lines, why: e });
        else state.entries.push(e);
      }
      const tail = Buffer.concat([state.seal, buf.subarray(Math.max(0, whole - SEAL), whole)]);
      state.seal = Buffer.from(tail.subarray(Math.max(0, tail.length - SEAL)));
      state.offset += whole;
    }
    // The unfinished last line (an append under way, or a crash's): read now, kept for the next read.
    const out = [...state.entries];
    const bad = [...state.bad];
    const rest = buf.toString('utf8', whole);
    if (rest.trim()) {
      for (const line of state.torn) bad.push({ line, why: 'not JSON' });
      const e = entryOf(rest);
      if (typeof e === 'string') bad.push({ line: state.lines + 1, why: e });
      else if (e) out.push(e);
    }
    if (bad.length) {
      bad.sort((a, b) => a.line - b.line);
      skipped = [
        `${basename(file)}: ${bad.length} ${bad.length === 1 ? 'line' : 'lines'} skipped, not journal entries (${bad
          .slice(0, 3)
          .map((b) => `line ${b.line}: ${b.why}`)
          .join('; ')}${bad.length > 3 ? '; …' : ''})`,
      ];
    }
    return out;
  };
  return {
    append(entry) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    },
    read,
    skipped: () => skipped,
    exportCsv(entries = read(), dir = join(dirname(file), 'exports')) {
      // Beside the other exports (messages, notes), not among the data files.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const target = join(dir, `journal-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`);
      writeFileSync(target, toCsv(entries), { mode: 0o600 });
      return target;
    },
  };
}

import {
  appendFileSync,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { lazySchema } from '../api/contract/lazy';
import type { Journal, JournalEntry } from '../services/changes/journal';
import { toCsv } from '../services/changes/journal';

const money = lazySchema(() => z.number().finite().nullable().catch(null));
/**
 * One journal line as written; a line of another shape (`{}`, `null`, `42`, an edit by hand) is
 * skipped and named. What a reader needs is required (when, what, the outcome); the rest falls back.
 */
const Entry = lazySchema(() =>
  z.object({
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
    settledByHand: z.literal(true).optional().catch(undefined),
    detail: z.string().optional().catch(undefined),
    bouquets: z.array(z.number().int()).optional().catch(undefined),
    service: z.string().optional().catch(undefined),
    months: z.number().int().optional().catch(undefined),
    connectionsBefore: z.number().int().optional().catch(undefined),
    connectionsAfter: z.number().int().optional().catch(undefined),
    expiryBefore: z.string().optional().catch(undefined),
    expiryAfter: z.string().optional().catch(undefined),
  }),
);

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
  /** Where each entry's line ends in the file (bytes), in step with `entries`: for `read(upTo)`. */
  ends: number[];
  /** Lines that are not entries, by line number (sorted when said). */
  bad: { line: number; why: string }[];
  /** Lines that are not JSON with no later line yet: a crash's torn end, damage once a line follows. */
  torn: number[];
}

const SEAL = 64;
/** What `readAhead` parses per turn of the event loop (about 2 ms of parsing on this machine). */
const CHUNK = 64 * 1024;
const fresh = (ino = 0): ReadState => ({
  ino,
  offset: 0,
  seal: Buffer.alloc(0),
  lines: 0,
  entries: [],
  ends: [],
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

/** The first `count` entries that `keep` takes. */
function kept(
  entries: readonly JournalEntry[],
  count: number,
  keep: (e: JournalEntry) => boolean,
): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (let i = 0; i < count; i++) if (keep(entries[i]!)) out.push(entries[i]!);
  return out;
}

/** The file journal's own: `chunkBytes` for tests (how much `readAhead` parses per turn). */
interface FileJournalOptions {
  readonly chunkBytes?: number;
}

/**
 * The journal as JSONL in the data directory, appended (one line per change) as it happens, so a
 * crash loses nothing already written. A line that is not an entry (torn by a crash, or valid JSON of
 * another shape) is skipped when reading and named in `skipped()`, never fatal. Each read parses only
 * what was appended since the last (a long journal is read by every account read for drift); a file
 * replaced (an editor's save), cut, or changed in its last bytes is read whole again. (An edit in
 * place further back that keeps the size is read at the next start: nothing but a hand edit does it.)
 * `readAhead` parses what is there in bounded chunks, a turn of the event loop each, so a start with a
 * long journal never blocks the first frame or the keys (the reads after it parse only what follows).
 */
export function fileJournal(
  file: string,
  opts: FileJournalOptions = {},
): Journal & Required<Pick<Journal, 'readWhere'>> {
  let skipped: string[] = [];
  let state = fresh();
  let ahead: Promise<void> | null = null;
  /**
   * Parses whole lines from the read offset on into the state: about `max` bytes (more when a line is
   * longer), every byte there when `max` is Infinity. Returns the bytes after the last whole line when
   * it read to the end of the file (an unfinished last line, perhaps empty), or null when more
   * follows. A file gone reads as empty; any other failure throws.
   */
  const advance = (max: number): Buffer | null => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (err) {
      // Gone (or never written) reads as empty, even when it goes between a check and the open.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      state = fresh();
      return Buffer.alloc(0);
    }
    let buf: Buffer;
    let size: number;
    try {
      const st = fstatSync(fd);
      size = st.size;
      if (st.ino !== state.ino || size < state.offset || !sealed(fd, state)) state = fresh(st.ino);
      let want = Math.min(size - state.offset, max);
      buf = Buffer.alloc(0);
      for (;;) {
        const more = Buffer.alloc(want - buf.length);
        let got = 0;
        while (got < more.length) {
          const n = readSync(fd, more, got, more.length - got, state.offset + buf.length + got);
          if (n === 0) break;
          got += n;
        }
        buf = buf.length ? Buffer.concat([buf, more.subarray(0, got)]) : more.subarray(0, got);
        // A chunk that holds no whole line grows until it does (or the file ends).
        if (got < more.length || buf.includes(0x0a) || state.offset + buf.length >= size) break;
        want = Math.min(size - state.offset, want * 2);
      }
    } finally {
      closeSync(fd);
    }
    // Whole lines only go into the state (a newline is one byte: the cut never splits a character).
    const whole = buf.lastIndexOf(0x0a) + 1;
    const later = (s: ReadState) => {
      for (const line of s.torn) s.bad.push({ line, why: 'not JSON' });
      s.torn = [];
    };
    if (whole > 0) {
      const start = state.offset;
      const text = buf.toString('utf8', 0, whole).split('\n');
      text.pop();
      // Each line's end in bytes: its newline's (a byte that never decodes as part of another character).
      let nl = -1;
      for (const line of text) {
        state.lines++;
        nl = buf.indexOf(0x0a, nl + 1);
        const end = start + nl + 1;
        if (!line.trim()) continue;
        later(state);
        const e = entryOf(line);
        if (e === null) state.torn.push(state.lines);
        else if (typeof e === 'string') state.bad.push({ line: state.lines, why: e });
        else {
          state.entries.push(e);
          state.ends.push(end);
        }
      }
      const tail = Buffer.concat([state.seal, buf.subarray(Math.max(0, whole - SEAL), whole)]);
      state.seal = Buffer.from(tail.subarray(Math.max(0, tail.length - SEAL)));
      state.offset += whole;
    }
    return state.offset + (buf.length - whole) >= size ? buf.subarray(whole) : null;
  };
  /** The entries as the file stood at `upTo`, only those `keep` takes (the others are not copied). */
  const read = (upTo?: number, keep?: (e: JournalEntry) => boolean): JournalEntry[] => {
    skipped = [];
    let rest: Buffer;
    try {
      rest = advance(Number.POSITIVE_INFINITY) ?? Buffer.alloc(0);
    } catch (err) {
      // A journal that cannot be read (permissions, a directory in its place) is named, never fatal.
      state = fresh();
      skipped = [
        `${file} could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): no entry shown`,
      ];
      return [];
    }
    // As the file stood at `upTo` (bytes): the entries whose line ended there or before.
    let count = state.entries.length;
    if (upTo !== undefined) while (count > 0 && state.ends[count - 1]! > upTo) count--;
    // The unfinished last line (an append under way, or a crash's): read now, kept for the next read.
    const out = keep ? kept(state.entries, count, keep) : state.entries.slice(0, count);
    const bad = [...state.bad];
    const text = rest.toString('utf8');
    if (text.trim()) {
      for (const line of state.torn) bad.push({ line, why: 'not JSON' });
      const e = entryOf(text);
      if (typeof e === 'string') bad.push({ line: state.lines + 1, why: e });
      else if (e && (upTo === undefined || state.offset + rest.length <= upTo) && (!keep || keep(e)))
        out.push(e);
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
  /** Parses what is on disk a chunk per turn of the event loop; a failure is left for `read` to name. */
  const readAhead = async (): Promise<void> => {
    const chunk = Math.max(1, opts.chunkBytes ?? CHUNK);
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        if (advance(chunk) !== null) return;
      } catch {
        return;
      }
    }
  };
  return {
    append(entry) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    },
    read: (upTo) => read(upTo),
    readWhere: (keep, upTo) => read(upTo, keep),
    mark() {
      try {
        return statSync(file).size;
      } catch {
        return 0;
      }
    },
    readAhead() {
      ahead ??= readAhead().finally(() => {
        ahead = null;
      });
      return ahead;
    },
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

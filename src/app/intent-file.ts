import {
  closeSync,
  existsSync,
  constants as fsConstants,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { OPEN } from '../domain/bulk';
import {
  BeginNotUndone,
  type IntentDamage,
  type IntentLog,
  type LoggedJob,
  unreadableOf,
} from '../services/changes/intent-log';
import {
  claim as claimOwner,
  heldBy,
  type OwnerRecord,
  type OwnerRecords,
  ownerState,
  release as releaseOwner,
  type ThereRecord,
} from '../services/changes/ownership';
import { describeError } from '../services/describe-error';
import { replay } from './intent-records';
import { type Owner, systemProcesses } from './process-owner';

/**
 * Node's, named one by one: a spread of the module reads every export (`fs.ReadStream`'s getter loads
 * Node's file streams: ≈ 10 ms profiled before the first frame, issue #27), and a namespace import
 * is copied whole by the bundle (which loads `fs/dir`: 1.7 M instructions at every start).
 */
const nodeFs = {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
};
/** The file functions the log uses: tests put a full or read-only disk in their place. */
export type IntentFs = typeof nodeFs;

interface IntentFileOptions {
  readonly fs?: Partial<IntentFs>;
  /** Benchmarks only: false measures what the fsyncs cost. */
  readonly fsync?: boolean;
  /** How long an ended job is kept as settled (default an hour): see `IntentLog.settled`. */
  readonly keepSettledMs?: number;
}

/** An ended job's file: `<job>.jsonl.settled`, kept `keepSettledMs`, never read as open. */
const SETTLED = '.settled';

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;

/** A file error names its file (a write on a descriptor does not), so the user is told which. */
function located(err: unknown, path: string): unknown {
  if (err instanceof Error && codeOf(err) && !(err as NodeJS.ErrnoException).path)
    (err as NodeJS.ErrnoException).path = path;
  return err;
}

/**
 * A disk's error reading `path`, in words, without the path: the notice that says it names the path
 * once, itself (the error keeps it, for the log).
 */
const readError = (err: unknown, path: string) =>
  describeError(located(err, path)).split(`: ${path}`).join('');

/**
 * The intent log on disk: a directory per account, one JSONL file per job — the job first, then one
 * record per change of a line's state, each on disk (fsync) before the request it announces is sent.
 * Replaying a file gives the job as it was when the process stopped; what cannot be read is said with
 * the file's path (intent-records.ts), and a line a damaged file may hide the sending of is checked,
 * never resumed. A settled job's file is removed (the journal keeps its history).
 *
 * Beside each job, `<job>.owner` names the process making or checking it, while it does: another
 * linedesk (a second cron run, a second terminal) leaves the job alone while that process lives and
 * holds it, and takes it over, exclusively, once it is released or its maker is gone.
 */
export function fileIntentLog(dir: string, self?: Owner, opts: IntentFileOptions = {}): IntentLog {
  const fs: IntentFs = {
    ...nodeFs,
    ...opts.fs,
  };
  const procs = systemProcesses(self);
  const durable = opts.fsync ?? true;
  const keepSettledMs = opts.keepSettledMs ?? 60 * 60_000;
  const ensureDir = () => {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw located(err, dir);
    }
  };
  // Made now when it can be; a directory that cannot be made is said by the first write, not at start.
  try {
    ensureDir();
  } catch {}
  const fileOf = (jobId: string) => join(dir, `${jobId.replace(/[^A-Za-z0-9-]/g, '_')}.jsonl`);
  const owners = fileOwnerRecords(fs, opts.fsync ?? true);
  const heldElsewhere = (jobId: string) => heldBy(owners, fileOf(jobId), procs);
  /** The last record number of each job this process writes to (read from the file when unknown). */
  const seq = new Map<string, number>();

  const syncDir = () => {
    if (!durable) return;
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } catch (err) {
      // Some file systems cannot sync a directory; the file itself was synced.
      if (codeOf(err) !== 'EINVAL' && codeOf(err) !== 'EISDIR') throw located(err, dir);
    } finally {
      fs.closeSync(fd);
    }
  };
  /** True only when the disk says the file is not there (an error of another kind: it may be). */
  const absent = (file: string) => {
    try {
      fs.statSync(file);
      return false;
    } catch (err) {
      return codeOf(err) === 'ENOENT';
    }
  };
  /**
   * A begun job's file taken back out, its begin having failed once the file was in place: null when
   * it is gone, else why it stays. One that replaced the job's earlier file (a resume rewrites it) is
   * kept: it holds the job as the log had it, and removed, the job would be offered nowhere.
   */
  const takeBack = (file: string, fresh: boolean): string | null => {
    if (!fresh)
      return 'a file of the job was there before it (a resume rewrites it): kept, as the job may be in it';
    try {
      fs.rmSync(file);
    } catch (err) {
      if (codeOf(err) !== 'ENOENT') return describeError(located(err, file));
    }
    // Best effort: a directory that could not be synced may not be now either.
    try {
      syncDir();
    } catch {}
    return null;
  };
  /** Writes all of `text` at the descriptor, then syncs it: on disk before this returns. */
  const writeAll = (fd: number, text: string) => {
    const buf = Buffer.from(text);
    for (let off = 0; off < buf.length; ) off += fs.writeSync(fd, buf, off, buf.length - off);
    if (durable) fs.fsyncSync(fd);
  };
  /** Appends one record to an existing file; a file cut mid-record gets a newline first. */
  const append = (file: string, text: string) => {
    const fd = fs.openSync(file, fsConstants.O_RDWR | fsConstants.O_APPEND);
    try {
      const size = fs.fstatSync(fd).size;
      const lastByte = Buffer.alloc(1);
      if (size > 0) fs.readSync(fd, lastByte, 0, 1, size - 1);
      writeAll(fd, size > 0 && lastByte[0] !== 0x0a ? `\n${text}` : text);
    } catch (err) {
      throw located(err, file);
    } finally {
      fs.closeSync(fd);
    }
  };

  /**
   * Exclusive: of two processes taking over the same job at once, exactly one wins. False only when
   * another live process holds it; a disk that cannot take the owner file throws (its error, its path).
   */
  const claim = (jobId: string): boolean => {
    seq.delete(jobId); // another process may have appended since this one last wrote
    return claimOwner(owners, fileOf(jobId), procs);
  };

  /**
   * The open jobs and their files' damage. `asked`: jobs known to be in the log are asked for, so a
   * directory gone is damage too (their files went with it), not an empty log as at a first start.
   */
  const scan = (asked = false): { jobs: ReturnType<IntentLog['open']>; damage: IntentDamage[] } => {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
    } catch (err) {
      if (codeOf(err) === 'ENOENT' && !asked) return { jobs: [], damage: [] };
      const problem = `the directory cannot be listed (${readError(err, dir)})`;
      const code = codeOf(err);
      return {
        jobs: [],
        damage: [{ path: dir, problem, jobId: null, lines: [], directory: true, ...(code ? { code } : {}) }],
      };
    }
    const jobs: ReturnType<IntentLog['open']> = [];
    const damage: IntentDamage[] = [];
    for (const name of names) {
      const path = join(dir, name);
      let text: string;
      try {
        text = String(fs.readFileSync(path, 'utf8'));
      } catch (err) {
        if (codeOf(err) === 'ENOENT') continue; // ended meanwhile
        const why = readError(err, path);
        damage.push({
          path,
          problem: `it cannot be read (${why})`,
          jobId: null,
          lines: [],
          unread: true,
          readError: why,
          ...(codeOf(err) ? { code: codeOf(err) } : {}),
        });
        continue;
      }
      const r = replay(text, path);
      if (r.job) jobs.push(r.job);
      if (!r.problems.length) continue;
      const lines = r.job
        ? r.job.lines.filter((l) => OPEN.has(l.state)).map(({ id, username }) => ({ id, username }))
        : [...r.names].map(([id, username]) => ({ id, username }));
      damage.push({ path, problem: r.problems.join('; '), jobId: r.job?.id ?? null, lines });
    }
    jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { jobs, damage };
  };

  const release = (jobId: string) => releaseOwner(owners, fileOf(jobId), procs);

  /**
   * The owner files of jobs this process ended (or set aside) that could not be removed then: each
   * holds a job that is no longer there for nobody (no other linedesk claims a job without its
   * file), and is removed at the next end here, unless its job's file has come back meanwhile.
   */
  const leftOwners = new Set<string>();
  /** Removes an ended job's owner file, or keeps it to remove later: never an error of the end. */
  const dropOwner = (file: string) => {
    leftOwners.add(file);
    for (const f of leftOwners)
      try {
        if (f === file || absent(f)) owners.remove(f);
        leftOwners.delete(f);
      } catch {} // kept: tried again at the next end
  };
  /**
   * The owner files left beside no job by a linedesk gone since (its end could not remove them, then
   * it stopped): they hold nothing, and are removed at an end here. Only a gone owner's: a live one's
   * may be a begin under way (its owner file is made before its job's). Best effort: what cannot be
   * read or removed stays, holding nothing.
   */
  const sweepOwners = () => {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    const there = new Set(names);
    for (const n of names) {
      if (!n.endsWith('.jsonl.owner')) continue;
      const job = join(dir, n.slice(0, -'.owner'.length));
      if (there.has(basename(job))) continue;
      try {
        if (ownerState(owners.read(job), procs) === 'gone') owners.remove(job);
      } catch {}
    }
  };

  /**
   * The ended jobs' files still kept; those older than `keepSettledMs` are removed. One whose age
   * cannot be told (its `stat` fails, other than gone) is named, never skipped in silence. `strict`:
   * a directory that cannot be listed (other than gone) throws, its path named: what the ended jobs
   * applied cannot be told, never read as "none" (`settled`).
   */
  const settledFiles = (strict = false): { kept: string[]; damage: IntentDamage[] } => {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith(`.jsonl${SETTLED}`));
    } catch (err) {
      if (strict && codeOf(err) !== 'ENOENT') throw located(err, dir);
      return { kept: [], damage: [] };
    }
    const kept: string[] = [];
    const damage: IntentDamage[] = [];
    for (const name of names) {
      const path = join(dir, name);
      try {
        if (Date.now() - fs.statSync(path).mtimeMs <= keepSettledMs) kept.push(path);
        else fs.rmSync(path, { force: true });
      } catch (err) {
        // Gone meanwhile (dropped by another process): nothing to keep.
        if (codeOf(err) === 'ENOENT') continue;
        const why = readError(err, path);
        damage.push({
          path,
          problem: `it cannot be read (${why})`,
          jobId: null,
          lines: [],
          ended: true,
          unread: true,
          readError: why,
          ...(codeOf(err) ? { code: codeOf(err) } : {}),
        });
      }
    }
    return { kept, damage };
  };

  /**
   * The ended jobs still kept, and those that do not read (named: a later check of a line such a job
   * changed cannot tell that change from its own, so the journal may over-claim it until it is dropped).
   */
  const readSettled = (strict = false): { jobs: ReturnType<IntentLog['open']>; damage: IntentDamage[] } => {
    const jobs: ReturnType<IntentLog['open']> = [];
    const { kept, damage } = settledFiles(strict);
    for (const path of kept) {
      let text: string;
      try {
        text = String(fs.readFileSync(path, 'utf8'));
      } catch (err) {
        if (codeOf(err) === 'ENOENT') continue; // dropped meanwhile by another process
        const why = readError(err, path);
        damage.push({
          path,
          problem: `it cannot be read (${why})`,
          jobId: null,
          lines: [],
          ended: true,
          unread: true,
          readError: why,
          ...(codeOf(err) ? { code: codeOf(err) } : {}),
        });
        continue;
      }
      const r = replay(text, path);
      if (r.job) jobs.push(r.job);
      if (!r.problems.length) continue;
      const lines = r.job
        ? r.job.lines.filter((l) => l.state === 'done').map(({ id, username }) => ({ id, username }))
        : [...r.names].map(([id, username]) => ({ id, username }));
      damage.push({ path, problem: r.problems.join('; '), jobId: r.job?.id ?? null, lines, ended: true });
    }
    return { jobs, damage };
  };

  /**
   * Appends the job's next numbered record (a line's state, the balance its window starts from) to
   * its file. Never creates the file: a record without its job could not be read back.
   */
  const appendNumbered = (jobId: string, record: Record<string, unknown>) => {
    const file = fileOf(jobId);
    let last = seq.get(jobId);
    if (last === undefined) {
      try {
        last = replay(String(fs.readFileSync(file, 'utf8')), file).lastN ?? 0;
      } catch (err) {
        throw located(err, file);
      }
    }
    try {
      append(file, `${JSON.stringify({ n: last + 1, ...record })}\n`);
      seq.set(jobId, last + 1);
    } catch (err) {
      seq.delete(jobId); // a part of it may be on disk: read again before the next record
      throw err;
    }
  };

  return {
    begin(job) {
      ensureDir();
      const file = fileOf(job.id);
      // The owner first: a job is never on disk without its maker named beside it. A job another
      // live process holds is not written (and so, by the engine's rule, nothing is sent).
      if (!claim(job.id))
        throw new Error(`${heldElsewhere(job.id) ?? 'another linedesk'} is making this job`);
      // Written whole and synced, then renamed, then the directory synced: a half-written header is
      // impossible, and the new file's name survives a power cut before the first request leaves.
      // Written whole or not at all: a failure once the file is in place (the directory's sync: an
      // EIO, or EMFILE opening it) takes it back out, so a begin that throws leaves nothing offered.
      const tmp = `${file}.tmp`;
      /** The file is in place: `true` when none was there before, `false` when it replaced one. */
      let placed: boolean | undefined;
      try {
        const fd = fs.openSync(tmp, 'w', 0o600);
        try {
          writeAll(fd, `${JSON.stringify({ n: 0, job })}\n`);
        } finally {
          fs.closeSync(fd);
        }
        const fresh = absent(file);
        fs.renameSync(tmp, file);
        placed = fresh;
        syncDir();
      } catch (err) {
        const cause = located(err, tmp);
        try {
          fs.rmSync(tmp, { force: true });
        } catch {} // never read (not a `.jsonl`): the error that stopped the begin is the one said
        const left = placed === undefined ? null : takeBack(file, placed);
        try {
          release(job.id); // nothing of it is made from here
        } catch {} // an owner without its job holds nothing; with it, it is taken over once this ends
        if (left !== null) throw new BeginNotUndone(cause, file, left);
        throw cause;
      }
      seq.set(job.id, 0);
    },
    closeBalanceWindow(jobId) {
      // Never creates the file: a job ended meanwhile stays ended.
      try {
        append(fileOf(jobId), `${JSON.stringify({ window: 'closed' })}\n`);
      } catch (err) {
        if (codeOf(err) === 'ENOENT') return;
        throw err;
      }
    },
    heldElsewhere,
    claim,
    release,
    line: (jobId, line) => appendNumbered(jobId, { line }),
    where: fileOf,
    openBalanceWindow: (jobId, balance) => appendNumbered(jobId, { balance }),
    end(jobId) {
      seq.delete(jobId);
      const file = fileOf(jobId);
      // Kept a while as settled (not read as open): a later job's check needs to know what it applied.
      // A file that can be neither renamed nor removed throws: the job stays open, as it is on disk.
      try {
        fs.renameSync(file, `${file}${SETTLED}`);
      } catch (err) {
        if (codeOf(err) !== 'ENOENT') fs.rmSync(file, { force: true });
      }
      // Ended from here, whatever its owner file does: never said to stay open once its file is gone.
      dropOwner(file);
      settledFiles(); // the ones past their time are dropped here too
      sweepOwners();
    },
    settled: () => readSettled(true).jobs,
    open: () => scan().jobs,
    damaged: () => [...scan().damage, ...readSettled().damage],
    openAndDamaged() {
      const { jobs, damage } = scan();
      return { jobs, damage: [...damage, ...readSettled().damage] };
    },
    openWithDamage: (expected = false) => scan(expected),
    current(jobIds) {
      const out = new Map<string, LoggedJob>();
      const { jobs, damage } = scan(true);
      // The directory cannot be listed: no job's version can be told (nor what other jobs hold).
      const listing = damage.find((d) => d.directory);
      if (listing) {
        for (const id of jobIds) out.set(id, unreadableOf(listing));
        return out;
      }
      let ended: ReturnType<typeof readSettled> | undefined;
      for (const id of jobIds) {
        const job = jobs.find((j) => j.id === id);
        if (job) {
          out.set(id, { kind: 'open', job });
          continue;
        }
        // Its file is there but does not read (not even its job): unreadable, not gone.
        const file = fileOf(id);
        const bad = damage.find((d) => d.path === file && d.jobId === null);
        if (bad) {
          out.set(id, unreadableOf(bad));
          continue;
        }
        ended ??= readSettled();
        const done = ended.jobs.find((j) => j.id === id);
        const badEnded = ended.damage.find((d) => d.path === `${file}${SETTLED}` && d.jobId === null);
        out.set(
          id,
          done ? { kind: 'ended', job: done } : badEnded ? unreadableOf(badEnded) : { kind: 'gone' },
        );
      }
      return out;
    },
    setAside(path) {
      const file = resolve(path);
      const name = basename(file);
      if (
        resolve(dirname(file)) !== resolve(dir) ||
        !(name.endsWith('.jsonl') || name.endsWith(`.jsonl${SETTLED}`))
      )
        throw new Error(`${path} is not a job file of the intent log in ${dir}`);
      const who = heldBy(owners, file, procs);
      if (who) throw new Error(`${who} holds ${path}: it is left as it is`);
      const to = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      try {
        fs.renameSync(file, to);
      } catch (err) {
        throw located(err, file);
      }
      dropOwner(file); // set aside from here, whatever its owner file does
      try {
        syncDir();
      } catch (err) {
        throw located(err, file);
      }
      return to;
    },
  };
}

/**
 * The owner of each job as a file beside it, `<job file>.owner` (the key is the job file's path):
 * created exclusively ('wx'), moved aside by rename (only one mover succeeds) and put back by a link
 * (never over a file made meanwhile), synced when written. A file there that does not read as an
 * owner is told as it is (`OwnerRecord`): torn, with its age from its mtime, or unreadable, with the
 * disk's words; ownership.ts decides what each holds.
 */
export function fileOwnerRecords(given: Partial<IntentFs> = {}, durable = true): OwnerRecords {
  const fs: IntentFs = { ...nodeFs, ...given };
  const at = (key: string) => `${key}.owner`;
  const unreadable = (err: unknown, file: string): OwnerRecord => ({
    kind: 'unreadable',
    why: readError(err, file),
    where: file,
  });
  /** Where a taker moves `file` out of the way (`moveAside`), tagged with its pid. */
  const asideOf = (file: string, tag: number) => `${file}.${tag}.stale`;
  /**
   * The records other takers are moving out of `file`'s way now (or left so, when they died on the
   * way). A directory that cannot be listed tells none here: the job's own file cannot be found then
   * either (the log's read names the directory, and nothing of the job is sent or checked).
   */
  const moving = (file: string): OwnerRecord => {
    const there = asides(file) ?? [];
    return there.length ? { kind: 'none', moving: there } : { kind: 'none' };
  };
  /** The records on their way out of `file`'s way, or null when the directory cannot be listed. */
  const asides = (file: string): ThereRecord[] | null => {
    const prefix = `${basename(file)}.`;
    let names: string[];
    try {
      names = fs.readdirSync(dirname(file)).filter((n) => n.startsWith(prefix) && n.endsWith('.stale'));
    } catch {
      return null;
    }
    const there: ThereRecord[] = [];
    for (const n of names) {
      const r = readAt(join(dirname(file), n));
      if (r.kind !== 'none') there.push(r);
    }
    return there;
  };
  const readAt = (file: string): OwnerRecord => {
    let text: string;
    try {
      text = String(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      return codeOf(err) === 'ENOENT' ? { kind: 'none' } : unreadable(err, file);
    }
    try {
      const o = JSON.parse(text) as Partial<Owner> | null;
      if (typeof o?.pid === 'number')
        return { kind: 'owner', owner: { pid: o.pid, start: typeof o.start === 'string' ? o.start : null } };
    } catch {}
    // Empty or not an owner: its age tells a maker writing it now from one that died before it did.
    try {
      return { kind: 'torn', ageMs: Date.now() - fs.statSync(file).mtimeMs, where: file };
    } catch (err) {
      return codeOf(err) === 'ENOENT' ? { kind: 'none' } : unreadable(err, file);
    }
  };
  return {
    read(key) {
      const r = readAt(at(key));
      return r.kind === 'none' ? moving(at(key)) : r;
    },
    moveAside(key, tag, stillGone) {
      const file = at(key);
      const aside = asideOf(file, tag);
      try {
        fs.renameSync(file, aside);
      } catch (err) {
        if (codeOf(err) === 'ENOENT') return false; // another taker moved it first
        throw located(err, file);
      }
      if (stillGone(readAt(aside))) {
        fs.rmSync(aside, { force: true });
        return true;
      }
      // Another taker's, made since the record was judged: put back by a link, which never replaces
      // a record made meanwhile. Where it cannot be (one was made: EEXIST; no hard links here) it is
      // left where it went, and holds the job from there (`moving`; a maker that made its record in
      // that gap sees it and backs off: `create`); never renamed back over another.
      try {
        fs.linkSync(aside, file);
      } catch {
        return false;
      }
      fs.rmSync(aside, { force: true });
      return false;
    },
    create(key, owner, holds) {
      const file = at(key);
      let fd: number;
      try {
        fd = fs.openSync(file, 'wx', 0o600);
      } catch (err) {
        if (codeOf(err) === 'EEXIST') return false; // another taker created it first
        throw located(err, file);
      }
      /** Whether the file in place is still the one this process made (by inode). */
      const placed = () => {
        try {
          const mine = fs.fstatSync(fd);
          const now = fs.statSync(file);
          return mine.ino === now.ino && mine.dev === now.dev;
        } catch {
          return false;
        }
      };
      try {
        const buf = Buffer.from(JSON.stringify(owner));
        for (let off = 0; off < buf.length; ) off += fs.writeSync(fd, buf, off, buf.length - off);
        if (durable) fs.fsyncSync(fd);
      } catch (err) {
        // A half-written owner would hold the job until it is old: removed, but only if it is still
        // this one (stalled past `TORN_ABANDONED_MS`, it may have been taken over: never another's).
        if (placed()) fs.rmSync(file, { force: true });
        fs.closeSync(fd);
        throw located(err, file);
      }
      // Still the file in place: one that stalled here past `TORN_ABANDONED_MS` may have been taken
      // for abandoned meanwhile (moved aside, another's made): then this process owns nothing. Made
      // while a record that still holds the job was on its way aside (a taker found it was not one to
      // take, and puts it back or leaves it there): this one backs off, removed while still its own.
      // (A directory that cannot be listed now: its job's file cannot be read either, so nothing of
      // it is sent or checked from here; and a record left aside is never dropped: it still holds.)
      let mine = placed();
      if (mine && holds) {
        if (asides(file)?.some(holds)) {
          if (placed()) fs.rmSync(file, { force: true });
          mine = false;
        }
      }
      fs.closeSync(fd);
      return mine;
    },
    remove: (key) => fs.rmSync(at(key), { force: true }),
  };
}

import * as z from 'zod';
import { lazySchema } from '../api/contract/lazy';
import type { BulkJob, BulkLine } from '../domain/bulk';
import { asReadFromWords } from '../services/changes/fresh-lines';

/**
 * The records of an intent file, read defensively: each is checked before it is believed, fields a
 * newer linedesk adds are kept (loose objects), and whatever cannot be read is said, never skipped in
 * silence. A file is `{"n":0,"job":…}` then `{"n":1,"line":…}`, `{"n":2,"line":…}`… (`n` counts the
 * records one process after another appended, so a lost, repeated or reordered one shows) and
 * `{"window":"closed"}` from any process, and `{"n":3,"balance":…}` when the job's balance window
 * opens (after its lines were read again: the job was begun with `balanceBefore: null`). Files of
 * earlier versions have no `n`; they read as before. A line skipped when read again keeps why in
 * `notSentAsRead`; one an earlier version wrote has it from its words (fresh-lines.ts), as a line
 * settled after its unknown outcome has `settledAfterUnknown` (settledFromWords).
 */

const num = lazySchema(() => z.number().finite());
const Line = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    username: z.string(),
    before: z.looseObject({
      expMs: num.nullable(),
      expRaw: z.string().nullable().optional(),
      connections: num,
      enabled: z.boolean(),
      isTrial: z.boolean(),
    }),
    cost: num.nullable(),
    after: z.looseObject({ expMs: num.optional(), connections: num.optional() }),
    state: z.enum(['pending', 'sending', 'done', 'failed', 'unknown', 'skipped', 'cancelled']),
    detail: z.string().optional(),
    deducedCredits: num.optional(),
    newBalance: num.optional(),
    charge: z.enum(['reply', 'balance', 'share', 'unknown']).optional(),
    provenNotApplied: z.boolean().optional(),
    heldBack: z.boolean().optional(),
    // Text, checked like every field; a value this version does not know (a newer one's) is read from
    // the words (asReadFromWords), not damage.
    notSentAsRead: z.string().optional(),
    // A value this version does not know (a newer one's) is read as absent, not damage.
    settledAfterUnknown: z.enum(['checked', 'by hand']).optional().catch(undefined),
    body: z.looseObject({}).optional(),
  }),
);
const Job = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    op: z.enum(['create', 'trial', 'extend', 'upgrade', 'unsuspend', 'delete']),
    months: num,
    connections: num,
    target: z.string(),
    createdAt: z.string(),
    balanceBefore: num.nullable().optional(),
    lines: z.array(Line),
  }),
);
const Seq = lazySchema(() => z.number().int().nonnegative().optional());

/**
 * A line an earlier version settled after its unknown outcome has no `settledAfterUnknown`: read
 * once from the words that version wrote (frozen: a check's "checked with the server after an
 * unknown outcome", the user's "settled by the user at"), so the resume offer still lists it.
 */
function settledFromWords(l: BulkLine): BulkLine {
  if (l.settledAfterUnknown || (l.state !== 'done' && l.state !== 'failed')) return l;
  const d = l.detail ?? '';
  if (d.includes('checked with the server after an unknown outcome'))
    return { ...l, settledAfterUnknown: 'checked' };
  if (/^(not )?applied: settled by the user at /.test(d)) return { ...l, settledAfterUnknown: 'by hand' };
  return l;
}

/**
 * A line as read: what an earlier version said in words, typed. A verdict settled by hand is the
 * user's word: an earlier version marked its "not applied" `provenNotApplied` too, read as not proven.
 */
export const readLine = (l: BulkLine): BulkLine => {
  const read = settledFromWords(asReadFromWords(l));
  if (read.settledAfterUnknown !== 'by hand' || !read.provenNotApplied) return read;
  const { provenNotApplied: _, ...asUsers } = read;
  return asUsers;
};

/** A file as far as it can be read. */
interface Replayed {
  /** The job as it stood, or null when its first record (the job) cannot be read. */
  readonly job: BulkJob | null;
  /** What is damaged, in words; empty when the file reads whole. */
  readonly problems: readonly string[];
  /** Every line any readable part of the file names: what a damaged job may concern. */
  readonly names: ReadonlyMap<string, string>;
  /** The last record number read, for the next append; null for a file of an earlier version. */
  readonly lastN: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const shapeOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : isRecord(v) ? 'an object' : typeof v;

/** Ids and usernames from anything shaped like a line, however damaged the rest. */
function nameLines(v: unknown, into: Map<string, string>) {
  for (const l of Array.isArray(v) ? v : [v])
    if (isRecord(l) && typeof l.id === 'string' && l.id && typeof l.username === 'string')
      into.set(l.id, l.username);
}

/**
 * Replays a job file. A line the replay shows as never sent (`pending`) in a file with any damage may
 * have been sent by a record that cannot be read (a torn last write, a lost record): it becomes
 * `unknown` — checked with the server, never resumed — with a detail that names the file.
 */
export function replay(text: string, path: string): Replayed {
  const problems: string[] = [];
  const names = new Map<string, string>();
  let job: BulkJob | null = null;
  let lines: BulkLine[] = [];
  let last: number | null = null;
  /** Another job closed this one's balance window: a later balance record does not open it again. */
  let closed = false;
  const rows = text.split('\n');
  const count = rows.filter((r) => r.trim()).length;
  let k = 0;
  for (const row of rows) {
    if (!row.trim()) continue;
    k++;
    const at = `record ${k} of ${count}`;
    let rec: unknown;
    try {
      rec = JSON.parse(row);
    } catch {
      problems.push(k === count && !text.endsWith('\n') ? `the last record is torn` : `${at} is not JSON`);
      continue;
    }
    if (!isRecord(rec)) {
      problems.push(`${at} is not a record (${shapeOf(rec)})`);
      continue;
    }
    const n = Seq.safeParse(rec.n);
    if (!n.success) {
      problems.push(`${at} has a record number of the wrong type`);
      continue;
    }
    if ('job' in rec) {
      nameLines(isRecord(rec.job) ? rec.job.lines : undefined, names);
      const parsed = Job.safeParse(rec.job);
      if (k !== 1 || job) problems.push(`${at} is a second job record`);
      else if (!parsed.success) problems.push(`the job record (${at}) is of the wrong shape`);
      else {
        job = parsed.data as BulkJob;
        lines = job.lines.map(readLine);
        last = n.data ?? null;
      }
      continue;
    }
    // Numbered records must follow each other: a gap is a lost record, a step back a repeated one.
    if (n.data !== undefined) {
      if (last !== null && n.data <= last) {
        problems.push(`${at} repeats an earlier one (number ${n.data} after ${last})`);
        continue;
      }
      if (last !== null && n.data > last + 1) problems.push(`a record before ${at} is missing`);
      last = n.data;
    }
    if ('line' in rec) {
      nameLines(rec.line, names);
      const parsed = Line.safeParse(rec.line);
      if (!parsed.success) {
        problems.push(`${at} is a line record of the wrong shape`);
        continue;
      }
      const l = readLine(parsed.data as BulkLine);
      if (!job) continue;
      // A created line is renamed from `new:<username>` to its real id once the server names it.
      const i = lines.findIndex(
        (x) => x.id === l.id || (x.id.startsWith('new:') && x.username === l.username),
      );
      if (i >= 0) lines[i] = l;
      else problems.push(`${at} names a line the job does not have (${l.username})`);
    } else if ('window' in rec) {
      if (rec.window !== 'closed') problems.push(`${at} is a window record of the wrong shape`);
      else {
        closed = true;
        if (job) job = { ...job, balanceBefore: null };
      }
    } else if ('balance' in rec) {
      // The balance the job's window starts from (read once its lines were read again); a window
      // another job closed before stays closed.
      const balance = num.safeParse(rec.balance);
      if (!balance.success) problems.push(`${at} is a balance record of the wrong shape`);
      else if (job && !closed) job = { ...job, balanceBefore: balance.data };
    } else if (n.data === undefined) {
      // A numbered record of a kind this version does not know is a newer linedesk's: kept in order.
      problems.push(`${at} is not a record linedesk knows (${Object.keys(rec).join(', ') || 'empty'})`);
    }
  }
  if (k === 0) problems.push('the file is empty');
  else if (!text.endsWith('\n') && !problems.includes('the last record is torn'))
    problems.push('the last record is torn');
  if (!job && k > 0 && !problems.some((p) => p.startsWith('the job record') || p.includes('record 1 of')))
    problems.push('the job record (record 1) is missing');
  if (job && problems.length) {
    const detail = `maybe sent: the intent file ${path} is damaged (${problems[0]}); checked with the server, never re-sent`;
    lines = lines.map((l) => (l.state === 'pending' ? { ...l, state: 'unknown', detail } : l));
  }
  return { job: job ? { ...job, lines } : null, problems, names, lastN: last };
}

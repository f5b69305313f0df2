/**
 * The balance watched for drift (domain/balance-drift.ts): each read of the account through
 * `readAccountWatched` is judged against the balance last seen for the account and what this
 * machine's journal says it spent since. Both front-ends read the account through it; the last
 * balance seen lives in a file beside the journal (app/balance-file.ts), one entry per account.
 */
import type { Account } from '../api/contract';
import { type BalanceSeen, type DriftVerdict, judgeDrift } from '../domain/balance-drift';
import type { IntentLog } from './changes/intent-log';
import type { Journal, JournalEntry } from './changes/journal';
import type { ServiceClient } from './client';

/** The last balance seen per account. A file that cannot be read or written is named, never fatal. */
export interface BalanceMemory {
  /** The balance last seen for the account, or null; `problem`: why the file could not be read. */
  read(targetId: string): { readonly seen: BalanceSeen | null; readonly problem: string | null };
  /** Remembers it; returns why it could not be written, or null. */
  write(targetId: string, seen: BalanceSeen): string | null;
}

export interface DriftReport {
  readonly verdict: DriftVerdict;
  /** The memory file could not be read or written: named (the drift check is then off, not fatal). */
  readonly problem: string | null;
}

export interface BalanceWatch {
  readonly balances: BalanceMemory;
  readonly targetId: string;
  /**
   * True for another account id of the same service as `targetId` (another API key of the same
   * reseller: its journaled charges may move this balance). The shape of an id is the app's
   * (app/account-id.ts `sameServiceAs`); absent: none.
   */
  readonly sameService?: (targetId: string) => boolean;
  readonly journal?: Journal | null;
  readonly intents?: IntentLog | null;
  readonly now: () => number;
  /** A change of this process open now that the intent log does not show (a journal write waiting). */
  readonly busy?: () => string | null;
}

const busyOf = (w: BalanceWatch): string | null => {
  try {
    // One read of the log: its open jobs and the damage of their files (not the ended jobs').
    const read = w.intents?.openWithDamage?.() ?? null;
    if ((read?.jobs ?? w.intents?.open() ?? []).length)
      return 'a change of this account is open (in flight or its outcome unknown)';
    // A job file that does not read (or a log directory that does not) may be a change in flight.
    // (An ended job's damaged file is not: its outcome is in the journal.)
    const damage = read?.damage ?? (w.intents?.damaged?.() ?? []).filter((d) => !d.ended);
    if (damage.length) return `the intent log could not be read whole (${damage[0]!.path})`;
  } catch {
    return 'the intent log could not be read';
  }
  return w.busy?.() ?? null;
};

/**
 * The account read, and the balance judged: a change open before or after the read (in flight, its
 * outcome unknown) leaves it unjudged, never called drift.
 */
export async function readAccountWatched(
  client: Pick<ServiceClient, 'me'>,
  watch: BalanceWatch | null,
): Promise<{ readonly account: Account; readonly drift: DriftReport | null }> {
  const { account, judge } = await readAccountToJudge(client, watch);
  return { account, drift: judge() };
}

/**
 * The account read, its judgement left for later (`judge`): what the judgement needs of the moment
 * of the read is taken then (the read's window, whether a change was open, where the journal ended),
 * so a judgement made once a long journal is read (the screens' start: app/journal-file.ts
 * `readAhead`) is the one a judgement at once would have made. Judgements must be made in the order
 * of the reads (each remembers the balance the next one starts from).
 */
export async function readAccountToJudge(
  client: Pick<ServiceClient, 'me'>,
  watch: BalanceWatch | null,
): Promise<{ readonly account: Account; readonly judge: () => DriftReport | null }> {
  if (!watch) return { account: await client.me(), judge: () => null };
  const before = busyOf(watch);
  const from = watch.now();
  const account = await client.me();
  // Asked before `to` is taken: a change (perhaps another linedesk's) that closes after this check
  // is journaled after it, so either it is seen open here or its entry falls within from..to. Asked
  // after `to`, one closing in between had its entry after `to`, counted for the next read only,
  // though its charge was already in this balance: drift that was not.
  const after = before ?? busyOf(watch);
  const to = watch.now();
  // The journal as it stood at `to`: an entry written later (an outcome learnt after the read) is
  // the next read's, as it is for a judgement made at once.
  const upTo = markOf(watch);
  return { account, judge: () => judgeRead(watch, account.credits, { from, to }, after, upTo) };
}

const markOf = (watch: BalanceWatch): number | undefined => {
  try {
    return watch.journal?.mark?.();
  } catch {
    return undefined;
  }
};

function judgeRead(
  watch: BalanceWatch,
  balance: number,
  read: { from: number; to: number },
  busy: string | null,
  upTo: number | undefined,
): DriftReport {
  const { seen, problem } = watch.balances.read(watch.targetId);
  let entries: readonly JournalEntry[] = [];
  let sameService: readonly JournalEntry[] = [];
  let skipped: readonly string[] = [];
  try {
    const same = watch.sameService;
    const mine = (e: JournalEntry) => e.target === watch.targetId;
    // This account's entries, and those of the service's other keys: judged apart.
    const groupOf = (e: JournalEntry) => (mine(e) ? 'mine' : same?.(e.target) ? 'same' : null);
    // Judged against the last balance seen, a read needs only the operations begun since (none
    // before the first: the journal is read then only to know it reads whole); every entry of them,
    // so each is judged as it would be among all entries.
    const all = begunSince(watch.journal, seen?.at ?? null, groupOf, upTo);
    entries = all.filter(mine);
    sameService = all.filter((e) => !mine(e));
    skipped = watch.journal?.skipped?.() ?? [];
  } catch {
    return { verdict: { kind: 'unsure', why: 'the journal could not be read' }, problem };
  }
  // A journal read in part (a file that cannot be read reads as empty; a damaged line is skipped)
  // may lack this machine's charges: not judged, named, and the last balance kept for a whole read.
  if (skipped.length)
    return {
      verdict: { kind: 'unsure', why: 'the journal could not be read whole' },
      problem: `${skipped[0]}: balance drift is not checked`,
    };
  // A file that cannot be read is not a fresh start: nothing is remembered over it, so it stays named.
  if (problem) return { verdict: { kind: 'unsure', why: problem }, problem };
  // A balance remembered from a later read (another linedesk's, or a reply that came back sooner)
  // is not this read's start: judged against it, what was spent between the reads looks like drift.
  if (seen && seen.at > read.from)
    return {
      verdict: { kind: 'unsure', why: 'a later read of the balance was judged already' },
      problem: null,
    };
  const judged = judgeDrift(seen, entries, balance, read, busy, sameService);
  const wrote = judged.remember ? watch.balances.write(watch.targetId, judged.remember) : null;
  return { verdict: judged.verdict, problem: wrote };
}

/**
 * The entries (of a group: null, none) of the operations whose first entry is later than `since`,
 * in journal order: all `judgeDrift` counts (an operation begun earlier is skipped there, whatever
 * its later entries say), found without copying the rest of the journal. An operation is its id
 * within a group; an entry with no id is one of its own. `since` null: none (the journal is read,
 * copying nothing, so that what it could not read is known).
 */
function begunSince(
  journal: Journal | null | undefined,
  since: number | null,
  groupOf: (e: JournalEntry) => string | null,
  upTo?: number,
): JournalEntry[] {
  if (!journal) return [];
  const where = (test: (e: JournalEntry) => boolean) =>
    journal.readWhere ? journal.readWhere(test, upTo) : journal.read(upTo).filter(test);
  if (since === null) return [...where(() => false)];
  const op = (e: JournalEntry) => `${groupOf(e)}\u0000${e.opId}`;
  const later = where((e) => groupOf(e) !== null && Date.parse(e.time) > since);
  const ops = new Set(later.flatMap((e) => (e.opId === undefined ? [] : [op(e)])));
  // An operation with an entry at or before `since` (or of an unreadable time) began then: not counted.
  const earlier = ops.size
    ? new Set(
        where(
          (e) =>
            e.opId !== undefined && groupOf(e) !== null && ops.has(op(e)) && !(Date.parse(e.time) > since),
        ).map(op),
      )
    : new Set<string>();
  return later.filter((e) => e.opId === undefined || !earlier.has(op(e)));
}

/** For tests and for when the data directory cannot be written: remembered for this process only. */
export function memoryBalances(): BalanceMemory & { readonly seen: Map<string, BalanceSeen> } {
  const seen = new Map<string, BalanceSeen>();
  return {
    seen,
    read: (id) => ({ seen: seen.get(id) ?? null, problem: null }),
    write: (id, s) => {
      seen.set(id, s);
      return null;
    },
  };
}

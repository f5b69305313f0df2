/**
 * Every change the app makes, appended as it happens. Never a password, never the API key.
 * An operation whose outcome changes (unknown, then applied after a check) is appended again under
 * the same `opId`; readers keep its last entry, so it counts once, with its final outcome.
 */
import { type ChangeOp, type ChargeSource, SPENDS } from '../../domain/bulk';
import { csvCell } from '../../domain/csv';
import { credits } from '../../domain/format';

export type Operation = ChangeOp;
/**
 * `not sent`: the request never left (the service could not be reached); `rejected`: the service
 * refused it; `not applied`: a check proved it was not applied; `unknown`: neither, yet. An
 * `applied` or `not applied` the user settled by hand has `settledByHand` (their word, not proof).
 */
export type JournalOutcome = 'applied' | 'rejected' | 'unknown' | 'not applied' | 'not sent';

export interface JournalEntry {
  /** One operation: `<job id>:<line>`. Entries written before it existed have none. */
  readonly opId?: string;
  readonly time: string;
  /**
   * The account it was made on (Target.id: the base URL and a fingerprint of the key, or
   * `sandbox:<db>`). Entries of an earlier version hold the base URL alone, or nothing.
   */
  readonly target: string;
  /** The account in words when it was written (the profile and host, or SANDBOX). */
  readonly service?: string;
  readonly operation: Operation;
  readonly lineId: string | null;
  readonly username: string | null;
  readonly quotedCost: number | null;
  /** The quote was the app's own estimate (extend), not a server simulation. */
  readonly estimate: boolean;
  readonly deducedCredits: number | null;
  readonly newBalance: number | null;
  /** How `deducedCredits` is known (the reply, the balance, a share of it), or that it is not. */
  readonly charge?: ChargeSource;
  readonly outcome: JournalOutcome;
  /** The outcome is the user's verdict (`linedesk pending --settle`), not the service's evidence. */
  readonly settledByHand?: true;
  readonly detail?: string;
  /** Bouquet ids of a created line: the API never returns them, the picker offers them again. */
  readonly bouquets?: readonly number[];
  /** What was bought (create, trial, extend): months; absent in entries of an earlier version. */
  readonly months?: number;
  readonly connectionsBefore?: number;
  readonly connectionsAfter?: number;
  /** The expiry before and after (ISO), as the server wrote it when it said, else as planned. */
  readonly expiryBefore?: string;
  readonly expiryAfter?: string;
}

export interface Journal {
  append(entry: JournalEntry): void;
  /** Every entry; `upTo` (a `mark()`): only those written before it. */
  read(upTo?: number): readonly JournalEntry[];
  /** Where the journal ends now (for `read(upTo)`: the journal as it stood then); absent: not kept. */
  mark?(): number;
  /**
   * Reads what is written so far in chunks, yielding to the event loop between them (a long journal
   * never blocks the screen); the reads after it parse only what follows. Absent: reads are cheap.
   */
  readAhead?(): Promise<void>;
  /**
   * The entries `keep` takes, of those written before `upTo` (a `mark()`), in journal order, without
   * copying the others: an account read judges against the few entries since the last balance seen.
   * Absent: `read(upTo).filter(keep)`.
   */
  readWhere?(keep: (e: JournalEntry) => boolean, upTo?: number): readonly JournalEntry[];
  /** What the last read skipped (lines that are not entries), in sentences; none when all was read. */
  skipped?(): readonly string[];
  /** Writes a CSV of these entries (every entry by default) to the exports folder; returns where. */
  exportCsv(entries?: readonly JournalEntry[]): string;
}

/** For tests and for when the data directory cannot be written. */
export function memoryJournal(): Journal & { entries: JournalEntry[] } {
  const entries: JournalEntry[] = [];
  return {
    entries,
    append: (e) => {
      entries.push(e);
    },
    read: () => entries,
    exportCsv: () => '(memory)',
  };
}

/** One entry per operation, its last (final) one, in the order the operations began. */
export function collapse(entries: readonly JournalEntry[]): JournalEntry[] {
  const out: JournalEntry[] = [];
  const at = new Map<string, number>();
  for (const e of entries) {
    const i = e.opId === undefined ? undefined : at.get(e.opId);
    if (i === undefined) {
      if (e.opId !== undefined) at.set(e.opId, out.length);
      out.push(e);
    } else out[i] = e;
  }
  return out;
}

const CSV_COLUMNS: ReadonlyArray<keyof JournalEntry> = [
  'opId',
  'time',
  'target',
  'operation',
  'lineId',
  'username',
  'quotedCost',
  'estimate',
  'deducedCredits',
  'newBalance',
  'charge',
  'outcome',
  'detail',
  'service',
  'months',
  'connectionsBefore',
  'connectionsAfter',
  'expiryBefore',
  'expiryAfter',
];

export function toCsv(entries: readonly JournalEntry[]): string {
  const rows = collapse(entries).map((e) => CSV_COLUMNS.map((c) => csvCell(e[c])).join(','));
  return `${[CSV_COLUMNS.join(','), ...rows].join('\n')}\n`;
}

export interface JournalTotals {
  readonly day: string;
  readonly operation: Operation;
  /** Applied: what was done. */
  readonly count: number;
  /** Credits charged by the applied ones (where the charge is known). */
  readonly credits: number;
  /** Applied, charge not known (yet). */
  readonly chargeUnknown: number;
  /** Refused, proven not applied, or never sent: nothing done, nothing charged. */
  readonly notApplied: number;
  /** Outcome still unknown: not counted as done, not counted as charged. */
  readonly unknown: number;
}

/** The local calendar day of a time (YYYY-MM-DD): the journal's days are the machine's. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Totals per local day and operation, newest day first: only what was applied counts as done. */
export function journalTotals(entries: readonly JournalEntry[]): JournalTotals[] {
  const map = new Map<string, JournalTotals>();
  for (const e of collapse(entries)) {
    const day = localDay(Date.parse(e.time));
    const key = `${day}|${e.operation}`;
    const prev = map.get(key) ?? {
      day,
      operation: e.operation,
      count: 0,
      credits: 0,
      chargeUnknown: 0,
      notApplied: 0,
      unknown: 0,
    };
    const applied = e.outcome === 'applied';
    map.set(key, {
      ...prev,
      count: prev.count + (applied ? 1 : 0),
      credits: prev.credits + (applied ? (e.deducedCredits ?? 0) : 0),
      chargeUnknown:
        prev.chargeUnknown + (applied && e.deducedCredits == null && SPENDS.has(e.operation) ? 1 : 0),
      notApplied: prev.notApplied + (applied || e.outcome === 'unknown' ? 0 : 1),
      unknown: prev.unknown + (e.outcome === 'unknown' ? 1 : 0),
    });
  }
  return [...map.values()].sort((a, b) =>
    a.day === b.day ? a.operation.localeCompare(b.operation) : b.day.localeCompare(a.day),
  );
}

/** One line of totals in words: "extend: 133 applied · 323 credits charged · 60 not applied · 20 unknown". */
export function totalsText(t: Omit<JournalTotals, 'day' | 'operation'>): string {
  const parts = [`${t.count} applied`];
  if (t.credits || t.count) parts.push(`${credits(t.credits)} charged`);
  if (t.chargeUnknown) parts.push(`${t.chargeUnknown} with the charge not known`);
  if (t.notApplied) parts.push(`${t.notApplied} not applied (nothing charged)`);
  if (t.unknown) parts.push(`${t.unknown} unknown (not counted)`);
  return parts.join(' · ');
}

/** The sum of totals (a period's grand total). */
export function sumTotals(ts: readonly JournalTotals[]): Omit<JournalTotals, 'day' | 'operation'> {
  const z = { count: 0, credits: 0, chargeUnknown: 0, notApplied: 0, unknown: 0 };
  for (const t of ts) for (const k of Object.keys(z) as (keyof typeof z)[]) z[k] += t[k];
  return z;
}

/**
 * The journal as the store writes it: a failed write (a full disk) never takes the app down. The
 * entry is kept in memory, the problem reported, and every later write (and a timer) tries again,
 * oldest first. The charge stays on screen and in the intent log meanwhile.
 */
export class JournalWriter {
  readonly #journal: Journal;
  readonly #onProblem: (err: unknown, waiting: number) => void;
  readonly #onWritten: (() => void) | undefined;
  readonly #queue: JournalEntry[] = [];
  #timer: ReturnType<typeof setInterval> | null = null;
  /**
   * `onWritten`: what waited is on disk after a failure (by the timer too: without it, a count of
   * entries waiting would stay up until the next change, and the drift check, which waits for them,
   * would not judge the balance until then).
   */
  constructor(journal: Journal, onProblem: (err: unknown, waiting: number) => void, onWritten?: () => void) {
    this.#journal = journal;
    this.#onProblem = onProblem;
    this.#onWritten = onWritten;
  }
  get waiting(): number {
    return this.#queue.length;
  }
  append(entry: JournalEntry): void {
    this.#queue.push(entry);
    this.flush();
  }
  /** Writes what is waiting; true when nothing is left. */
  flush(): boolean {
    try {
      while (this.#queue.length) {
        this.#journal.append(this.#queue[0]!);
        this.#queue.shift();
      }
    } catch (err) {
      this.#onProblem(err, this.#queue.length);
      this.#timer ??= setInterval(() => this.flush(), 5_000);
      this.#timer.unref?.();
      return false;
    }
    if (this.#timer) {
      clearInterval(this.#timer);
      this.#timer = null;
      this.#onWritten?.();
    }
    return true;
  }
  /** Entries not yet on disk, for the journal screen. */
  pending(): readonly JournalEntry[] {
    return this.#queue;
  }
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

/** Every change the app makes, appended as it happens. Never a password, never the API key. */
export type Operation = 'create' | 'trial' | 'extend' | 'upgrade' | 'unsuspend' | 'delete';
export type JournalOutcome = 'applied' | 'rejected' | 'unknown' | 'not applied';

export interface JournalEntry {
  readonly time: string;
  /** The service's base URL. */
  readonly target: string;
  readonly operation: Operation;
  readonly lineId: string | null;
  readonly username: string | null;
  readonly quotedCost: number | null;
  /** The quote was the app's own estimate (extend), not a server simulation. */
  readonly estimate: boolean;
  readonly deducedCredits: number | null;
  readonly newBalance: number | null;
  readonly outcome: JournalOutcome;
  readonly detail?: string;
  /** Bouquet ids of a created line: the API never returns them, the picker offers them again. */
  readonly bouquets?: readonly number[];
}

export interface Journal {
  append(entry: JournalEntry): void;
  read(): readonly JournalEntry[];
  /** Writes a CSV of every entry; returns where. */
  exportCsv(): string;
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

const CSV_COLUMNS: ReadonlyArray<keyof JournalEntry> = [
  'time',
  'target',
  'operation',
  'lineId',
  'username',
  'quotedCost',
  'estimate',
  'deducedCredits',
  'newBalance',
  'outcome',
  'detail',
];

/** One CSV cell: quoted when needed; a leading = + - @ is neutralised so a spreadsheet never runs it. */
export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function toCsv(entries: readonly JournalEntry[]): string {
  const rows = entries.map((e) => CSV_COLUMNS.map((c) => csvCell(e[c])).join(','));
  return `${[CSV_COLUMNS.join(','), ...rows].join('\n')}\n`;
}

export interface JournalTotals {
  readonly day: string;
  readonly operation: Operation;
  readonly count: number;
  readonly credits: number;
}

/** Totals per day and operation, newest day first. */
export function journalTotals(entries: readonly JournalEntry[]): JournalTotals[] {
  const map = new Map<string, JournalTotals>();
  for (const e of entries) {
    const day = e.time.slice(0, 10);
    const key = `${day}|${e.operation}`;
    const prev = map.get(key) ?? { day, operation: e.operation, count: 0, credits: 0 };
    map.set(key, { ...prev, count: prev.count + 1, credits: prev.credits + (e.deducedCredits ?? 0) });
  }
  return [...map.values()].sort((a, b) =>
    a.day === b.day ? a.operation.localeCompare(b.operation) : b.day.localeCompare(a.day),
  );
}

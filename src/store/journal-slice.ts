import { homedir } from 'node:os';
import { collapse, type JournalEntry, toCsv } from '../services/changes/journal';
import {
  filterJournal,
  JOURNAL_PERIODS,
  type JournalPeriod,
  periodRange,
} from '../services/changes/journal-filter';
import { notesCsv } from '../services/notes';
import type { GetState, SetState, StoreDeps } from './deps';

export interface JournalSlice {
  /** The entries shown: this account's (unless all), in the period; one per operation. */
  readonly journalEntries: readonly JournalEntry[];
  /** Every account's entries, not only this one's. */
  readonly journalAllAccounts: boolean;
  readonly journalPeriod: JournalPeriod;
  /** Entries left out (in the period), said, never hidden silently: of other accounts, and of an
   *  earlier version that names no account. */
  readonly journalLeftOut: { readonly otherAccounts: number; readonly noAccount: number };
  loadJournal: () => void;
  toggleJournalAccounts: () => void;
  cycleJournalPeriod: () => void;
  /** The journal as CSV (what is shown), and the notes beside it (the other half of a line's history). */
  exportJournal: () => void;
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A path as a person reads it: the home folder as ~ (a flash names a path whole). */
function displayPath(path: string, home: string): string {
  if (!home || home === '/') return path;
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export function createJournalSlice(set: SetState, get: GetState, deps: StoreDeps): JournalSlice {
  const now = deps.now ?? Date.now;
  const home = () => deps.homeDir ?? homedir();
  return {
    journalEntries: [],
    journalAllAccounts: false,
    journalPeriod: 'all',
    journalLeftOut: { otherAccounts: 0, noAccount: 0 },
    loadJournal() {
      // One entry per operation, with its final outcome.
      const all = collapse(deps.journal?.read() ?? []);
      const { entries, otherAccounts, noAccount } = filterJournal(all, {
        account: get().journalAllAccounts ? null : get().target.id,
        ...periodRange(get().journalPeriod, now()),
      });
      set({ journalEntries: entries, journalLeftOut: { otherAccounts, noAccount } });
      const skipped = deps.journal?.skipped?.() ?? [];
      if (skipped.length) get().notify(skipped.join('; '), 'error');
    },
    toggleJournalAccounts() {
      set({ journalAllAccounts: !get().journalAllAccounts });
      get().loadJournal();
    },
    cycleJournalPeriod() {
      const i = JOURNAL_PERIODS.indexOf(get().journalPeriod);
      set({ journalPeriod: JOURNAL_PERIODS[(i + 1) % JOURNAL_PERIODS.length]! });
      get().loadJournal();
    },
    exportJournal() {
      if (!deps.journal) return get().notify('No journal in this session', 'error');
      // Short, so the flash names both files whole: journal-20261125-093000.csv.
      const stamp = new Date(now()).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      const entries = get().journalEntries;
      const notes = get().lineNotes.size;
      let journalFile: string;
      try {
        // Beside the other exports; what the view shows (this account, the period).
        journalFile = deps.writeExport
          ? deps.writeExport(`journal-${stamp}.csv`, toCsv(entries))
          : deps.journal.exportCsv(entries);
      } catch (err) {
        return get().notify(`Could not export the journal: ${why(err)}`, 'error');
      }
      const shown = displayPath(journalFile, home());
      const counted = `${entries.length} journal ${entries.length === 1 ? 'entry' : 'entries'}`;
      try {
        if (!deps.writeExport) throw new Error('no export folder in this session');
        const file = deps.writeExport(`notes-${stamp}.csv`, notesCsv(get().lineNotes));
        const notesShown = displayPath(file, home());
        const dir = shown.slice(0, shown.lastIndexOf('/') + 1);
        get().notify(
          `Exported ${counted} to ${shown}, ${notes} ${notes === 1 ? 'note' : 'notes'} to ${notesShown.startsWith(dir) ? notesShown.slice(dir.length) : notesShown}`,
          'success',
        );
      } catch (err) {
        deps.logError?.('exportNotes', err);
        get().notify(
          `Journal (${counted}) exported to ${shown}; the notes could not be exported: ${why(err)}`,
          'error',
        );
      }
    },
  };
}

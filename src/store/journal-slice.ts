import type { GetState, SetState, StoreDeps } from './deps';
import { collapse, type JournalEntry } from './journal';
import { notesCsv } from './notes';

export interface JournalSlice {
  readonly journalEntries: readonly JournalEntry[];
  loadJournal: () => void;
  /** The journal as CSV, and the notes beside it (they are the other half of a line's history). */
  exportJournal: () => void;
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function createJournalSlice(set: SetState, get: GetState, deps: StoreDeps): JournalSlice {
  return {
    journalEntries: [],
    loadJournal() {
      // One entry per operation, with its final outcome.
      set({ journalEntries: collapse(deps.journal?.read() ?? []) });
      const skipped = deps.journal?.skipped?.() ?? [];
      if (skipped.length) get().notify(skipped.join('; '), 'error');
    },
    exportJournal() {
      if (!deps.journal) return get().notify('No journal in this session', 'error');
      let journal: string;
      try {
        journal = `Journal exported to ${deps.journal.exportCsv()}`;
      } catch (err) {
        return get().notify(`Could not export the journal: ${why(err)}`, 'error');
      }
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      try {
        if (!deps.writeExport) throw new Error('no export folder in this session');
        const file = deps.writeExport(`notes-${stamp}.csv`, notesCsv(get().lineNotes));
        get().notify(`${journal}; notes (${get().lineNotes.size}) to ${file}`, 'success');
      } catch (err) {
        deps.logError?.('exportNotes', err);
        get().notify(`${journal}; the notes could not be exported: ${why(err)}`, 'error');
      }
    },
  };
}

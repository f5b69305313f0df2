import type { GetState, SetState, StoreDeps } from './deps';
import type { JournalEntry } from './journal';

export interface JournalSlice {
  readonly journalEntries: readonly JournalEntry[];
  loadJournal: () => void;
  exportJournal: () => void;
}

export function createJournalSlice(set: SetState, get: GetState, deps: StoreDeps): JournalSlice {
  return {
    journalEntries: [],
    loadJournal() {
      set({ journalEntries: deps.journal?.read() ?? [] });
    },
    exportJournal() {
      if (!deps.journal) return get().notify('No journal in this session', 'error');
      try {
        get().notify(`Journal exported to ${deps.journal.exportCsv()}`, 'success');
      } catch (err) {
        get().notify(`Could not export the journal: ${(err as Error).message}`, 'error');
      }
    },
  };
}

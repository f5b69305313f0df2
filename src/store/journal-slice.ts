import type { GetState, SetState, StoreDeps } from './deps';
import { collapse, type JournalEntry } from './journal';

export interface JournalSlice {
  readonly journalEntries: readonly JournalEntry[];
  loadJournal: () => void;
  exportJournal: () => void;
}

export function createJournalSlice(set: SetState, get: GetState, deps: StoreDeps): JournalSlice {
  return {
    journalEntries: [],
    loadJournal() {
      // One entry per operation, with its final outcome.
      set({ journalEntries: collapse(deps.journal?.read() ?? []) });
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

import { createStore } from 'zustand/vanilla';
import type { BulkJob } from '../domain/bulk';
import { type ActionSlice, createActionSlice } from './action-slice';
import { type BulkSlice, createBulkSlice } from './bulk-slice';
import { type CatalogSlice, createCatalogSlice } from './catalog-slice';
import { type ChangesSlice, createChangesSlice, withChangeService } from './changes/changes-slice';
import type { StoreDeps } from './deps';
import { createFindSlice, type FindSlice } from './find-slice';
import { createFormSlice, type FormSlice } from './form-slice';
import { createJournalSlice, type JournalSlice } from './journal-slice';
import { createLinesSlice, type LinesSlice } from './lines-slice';
import { createMessagesSlice, type MessagesSlice } from './messages-slice';
import { createNotesSlice, type NotesSlice } from './notes-slice';
import { createPaletteSlice, type PaletteSlice } from './palette-slice';
import { createProfileSlice, type ProfileSlice } from './profile-slice';
import { createRenewalsSlice, type RenewalsSlice } from './renewals-slice';
import { createSelectionSlice, type SelectionSlice } from './selection-slice';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export interface AppActions {
  /**
   * First load: account and the first page together, resolved once both landed (or failed); then the
   * catalog. Changes left open in the intent log are checked with the server before anything else.
   */
  start: () => Promise<void>;
  /** `r`: reloads what the current screen shows (and retries after an error). */
  refreshScreen: () => Promise<void>;
  /** A job checked again in the background: the dialog or the recovery showing it follows. */
  changeChecked: (job: BulkJob) => void;
}

export type AppState = SessionSlice &
  CatalogSlice &
  LinesSlice &
  SelectionSlice &
  UiSlice &
  PaletteSlice &
  FormSlice &
  ActionSlice &
  JournalSlice &
  BulkSlice &
  ChangesSlice &
  ProfileSlice &
  RenewalsSlice &
  MessagesSlice &
  FindSlice &
  NotesSlice &
  AppActions;
export type AppStore = ReturnType<typeof createAppStore>;

/** One vanilla store per app (and per test); every API call is one of its actions. */
export function createAppStore(given: StoreDeps) {
  const deps = withChangeService(given);
  return createStore<AppState>()((set, get) => ({
    ...createSessionSlice(set, get, deps),
    ...createCatalogSlice(set, get, deps),
    ...createLinesSlice(set, get, deps),
    ...createSelectionSlice(set, get, deps),
    ...createUiSlice(set, get, deps),
    ...createPaletteSlice(set, get, deps),
    ...createFormSlice(set, get, deps),
    ...createActionSlice(set, get, deps),
    ...createJournalSlice(set, get, deps),
    ...createBulkSlice(set, get, deps),
    ...createChangesSlice(set, get, deps),
    ...createProfileSlice(set, get, deps),
    ...createRenewalsSlice(set, get, deps),
    ...createMessagesSlice(set, get, deps),
    ...createFindSlice(set, get, deps),
    ...createNotesSlice(set, get, deps),

    async start() {
      await get().recoverIntents();
      await Promise.all([get().loadAccount(), get().loadLines({ offset: 0 })]);
      // After the first screen's own flashes, so it is not replaced at once.
      get().sayTemplateErrors();
      // A find switched to this profile to show a line: it opens once the first page is in.
      if (deps.openLine) void get().openLineOnStart(deps.openLine);
      // Said once the first screen is there, so nothing at start replaces it.
      get().reportNotesProblem();
      // Last, so no other start-up message replaces it: open changes left unchecked.
      for (const problem of deps.startProblems ?? []) get().notify(problem, 'error');
      // Packages and bouquets serve forms and pickers, not the first screen: they follow it.
      void get().loadCatalog();
    },

    changeChecked(job) {
      get().actionJobChecked(job);
      get().bulkJobChecked(job);
      const r = get().recovery;
      if (r && !r.checking && r.jobs.some((x) => x.job.id === job.id))
        set({ recovery: { ...r, jobs: r.jobs.map((x) => (x.job.id === job.id ? { ...x, job } : x)) } });
    },

    async refreshScreen() {
      const screen = get().screens.at(-1)!;
      const jobs: Promise<void>[] = [get().loadAccount()];
      if (screen.id === 'lines' || screen.id === 'detail') jobs.push(get().refreshLines());
      if (screen.id === 'account') jobs.push(get().loadCounts(), get().loadCatalog(true));
      if (screen.id === 'packages' || screen.id === 'bouquets') jobs.push(get().loadCatalog(true));
      if (screen.id === 'renewals') jobs.push(get().loadRenewals());
      if (screen.id === 'find') jobs.push(get().findAgain());
      await Promise.all(jobs);
    },
  }));
}

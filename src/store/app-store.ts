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
import { createRunwaySlice, type RunwaySlice } from './runway-slice';
import { createSelectionSlice, type SelectionSlice } from './selection-slice';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createUiSlice, type UiSlice } from './ui-slice';
import { createUserRunSlice, type UserRunSlice } from './user-run-slice';
import { selectScreen } from './view-stack';
import { createViewsSlice, type ViewsSlice } from './views-slice';

interface AppActions {
  /**
   * First load: account and the first page together, resolved once both landed (or failed); then the
   * catalog. Changes left open in the intent log are checked with the server before anything else.
   */
  start: () => Promise<void>;
  /** `r`: reloads what the current screen shows (and retries after an error). */
  refreshScreen: () => Promise<void>;
  /** Event, domain → UI: a job checked again in the background; the dialog and the bulk results
   *  showing it follow (the resume offer follows every check and settle: the changes slice). */
  changeChecked: (job: BulkJob) => void;
}

/**
 * Domain state: what the service and this machine hold for the account (the account and counts,
 * the catalog, the lines, the change engine's jobs, intents and unsettled lines, the journal, the
 * notes, the renewals plan, a find's answers), loaded and recorded through services/. Some still
 * carry a view's field beside their data (the lines' cursor and search draft, the renewals' and
 * find's cursors, the journal's period, the note form): named in docs, to move with the view stack.
 */
export type DomainState = SessionSlice &
  CatalogSlice &
  LinesSlice &
  ChangesSlice &
  JournalSlice &
  NotesSlice &
  RenewalsSlice &
  RunwaySlice &
  FindSlice;

/**
 * UI state: the views and what the user is doing in them (the view stack and flash, the palette,
 * the marks, the line form and picker, the change and bulk dialogs, the profile form, the message
 * picker). It reads domain state and changes it only through domain actions; the domain tells it
 * what happened through the events below (changeChecked).
 */
export type UiState = UiSlice &
  PaletteSlice &
  SelectionSlice &
  FormSlice &
  ActionSlice &
  BulkSlice &
  ProfileSlice &
  MessagesSlice &
  ViewsSlice &
  UserRunSlice;

export type AppState = DomainState & UiState & AppActions;
export type AppStore = ReturnType<typeof createAppStore>;

/** One vanilla store per app (and per test); every API call is one of its actions. */
export function createAppStore(given: StoreDeps) {
  const deps = withChangeService(given);
  return createStore<AppState>()((set, get) => {
    const changes = createChangesSlice(set, get, deps);
    return {
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
      ...changes,
      ...createProfileSlice(set, get, deps),
      ...createRenewalsSlice(set, get, deps),
      ...createRunwaySlice(set, get, deps),
      ...createMessagesSlice(set, get, deps),
      ...createFindSlice(set, get, deps),
      ...createNotesSlice(set, get, deps),
      ...createViewsSlice(set, get, deps),
      ...createUserRunSlice(set, get, deps),

      async start() {
        // The intent log's check before anything else; the lookup of the lines an interrupted job
        // leaves to mark again after the first page (it may walk many pages): the offer says so.
        let firstScreen = () => {};
        const shown = new Promise<void>((r) => {
          firstScreen = r;
        });
        await get().recoverIntents({ marksAfter: shown });
        await Promise.all([get().loadAccount(), get().loadLines({ offset: 0 })]).finally(firstScreen);
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
        // The header's runway: after the first screen, never before it.
        if (deps.runwayAtStart) void get().loadRunway();
      },

      changeChecked(job) {
        get().actionJobChecked(job);
        get().bulkJobChecked(job);
      },

      shutdown(graceMs) {
        // A program of yours is stopped with the app (a profile switch does not end the process, so
        // nothing else would stop it before its own timeout).
        get().stopUserRun();
        return changes.shutdown(graceMs);
      },

      async refreshScreen() {
        const screen = selectScreen(get());
        const jobs: Promise<void>[] = [get().loadAccount()];
        if (screen.id === 'lines' || screen.id === 'detail') jobs.push(get().refreshLines());
        if (screen.id === 'account')
          jobs.push(get().loadCounts(), get().loadCatalog(true), get().loadRunway());
        if (screen.id === 'packages' || screen.id === 'bouquets') jobs.push(get().loadCatalog(true));
        if (screen.id === 'renewals') jobs.push(get().loadRenewals());
        if (screen.id === 'find') jobs.push(get().findAgain());
        await Promise.all(jobs);
      },
    };
  });
}

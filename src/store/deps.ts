import type { StoreApi } from 'zustand/vanilla';
import type { RetryPolicy } from '../api/retry';
import type { Template } from '../domain/templates';
import type { ForeignJob, IntentLog } from '../services/changes/intent-log';
import type { Journal } from '../services/changes/journal';
import type { ChangeService } from '../services/changes/service';
import type { ServiceClient } from '../services/client';
import type { FindAnswer, FindSource } from '../services/find-lines';
import type { Notes } from '../services/notes';
import type { ProfilesApi, SettingsApi } from '../services/settings';
import type { AppState } from './app-store';
import type { Target } from './types';

export type { ProfileSummary, ProfilesApi, Settings, SettingsApi } from '../services/settings';

/** Find across accounts (`:find`): the app layer makes a client per profile; the store never sees a key. */
export interface FindAcrossApi {
  /** The services a find asks (every profile, and the service in use when it is not one), read now;
   *  `problem` says why the profiles could not be read (then only the service in use is listed). */
  sources(): { readonly sources: readonly FindSource[]; readonly problem: string | null };
  /** Searches the sources named (by id), a few at a time, each within a deadline; each answer goes
   *  to `onAnswer` as it lands (a slow one holds up no other). Resolves once every one answered. */
  search(
    text: string,
    sources: readonly string[],
    signal: AbortSignal,
    onAnswer: (answer: FindAnswer) => void,
  ): Promise<void>;
}

/** What the store needs from outside: the client (only its endpoint functions), the target, a clock. */
export type StoreClient = ServiceClient;

export interface StoreDeps {
  readonly client: StoreClient;
  readonly target: Target;
  readonly readOnly?: boolean;
  readonly now?: () => number;
  /** Lines per page before the terminal's height is known. */
  readonly pageSize?: number;
  /** Delay between the last keystroke and the search it triggers. */
  readonly searchDebounceMs?: number;
  /** Where every change is recorded (a JSONL file in the data directory). */
  readonly journal?: Journal;
  /** Where every change's intent is written before its request leaves (checked at the next start). */
  readonly intents?: IntentLog;
  /** Waits between retries and checks (tests shorten them). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The change engine's pauses after a 429 (tests shrink them). */
  readonly retry?: Partial<RetryPolicy>;
  /**
   * How long a check that sees no change proves only "not yet" (default 10 minutes; the config's
   * `holdMinutes`): a line is held, and checked again, until then.
   */
  readonly holdMs?: number;
  /** The app keeps checking open changes in the background during their hold window (not scripts). */
  readonly watch?: boolean;
  /** The first background check's delay (5 s; tests shorten it); each next one doubles, to a minute. */
  readonly watchFirstMs?: number;
  /** How long a job waits for an unreachable service before it stops sending (default 5 minutes). */
  readonly unreachableMs?: number;
  /** Requests in flight at most during a bulk job. */
  readonly bulkConcurrency?: number;
  /** The user's home folder, shown as ~ in the paths a flash names (os.homedir() by default). */
  readonly homeDir?: string;
  /** Writes an export file (results, journal) and says where. */
  readonly writeExport?: (name: string, content: string) => string;
  /** Profiles of the config file, for `:profile`. */
  readonly profiles?: ProfilesApi;
  /** The user's settings in the config file (memory only when absent). */
  readonly settings?: SettingsApi;
  /** Per-line notes kept on this machine for this service (memory only when absent). */
  readonly notes?: Notes;
  /** Customer message templates: the config's over the defaults, and what was refused at load. */
  readonly templates?: { readonly templates: readonly Template[]; readonly errors: readonly string[] };
  /** `:find`: every profile's service searched for a username or id. */
  readonly findAcross?: FindAcrossApi;
  /** A line to open once the first load is done (a find switched profiles to show it). */
  readonly openLine?: LineToOpen;
  /** Open jobs recorded for this service under another account id (services/changes/intent-log.ts). */
  readonly foreignIntents?: () => readonly ForeignJob[];
  /** What the app layer found wrong while opening this service's files, said once at start. */
  readonly startProblems?: readonly string[];
  /** The change service (made from these deps by the store unless given: a command shares its own). */
  readonly changes?: ChangeService;
  /** Where unexpected errors go (the log file); never the screen. */
  readonly logError?: (context: string, err: unknown) => void;
}

export type SetState = StoreApi<AppState>['setState'];
export type GetState = StoreApi<AppState>['getState'];

/** A line a find chose in another profile, opened there once the first load is done; `find` is the
 *  find's text, searched again beneath the line so that going back returns to the matches. */
export interface LineToOpen {
  readonly id: string;
  readonly username: string;
  readonly find?: string;
}

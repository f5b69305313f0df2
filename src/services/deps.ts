/**
 * What the services need from outside, given by the app layer (app/connection.ts, app/run.tsx) or a
 * test: the client, the target, the files (journal, intent log, notes), the config's profiles and
 * settings, a clock. Both front-ends build on these; the store adds its own (store/deps.ts).
 */
import type { RetryPolicy } from '../api/retry';
import type { RenewalWindow } from '../domain/renewals';
import type { Template } from '../domain/templates';
import type { ForeignJob, IntentLog } from './changes/intent-log';
import type { Journal } from './changes/journal';
import type { ServiceClient } from './client';
import type { FindAnswer, FindSource } from './find-lines';
import type { Notes } from './notes';

export interface Target {
  /** Stable across starts: the sandbox's database, or the base URL and a fingerprint of the key (one
   *  id per account: jobs, notes and settings are kept by it). */
  readonly id: string;
  /** 'sandbox': the embedded service; 'remote': a configured one. */
  readonly kind: 'sandbox' | 'remote';
  /** SANDBOX, or the host. */
  readonly label: string;
  readonly baseUrl: string;
}

export interface ProfileSummary {
  readonly name: string;
  readonly baseUrl: string;
  /** The key is only ever shown as its last four characters. */
  readonly keyTail: string;
  readonly isDefault: boolean;
}

/** Profiles in the config file (the app layer owns the file; the store only asks). */
export interface ProfilesApi {
  readonly current: string | null;
  list(): ProfileSummary[];
  exists(name: string): boolean;
  /** Checks the account first; an error message, or null when saved. */
  add(name: string, baseUrl: string, apiKey: string): Promise<string | null>;
  rename(from: string, to: string): string | null;
  remove(name: string): string | null;
}

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

/** What the user sets and the config keeps: the renewals window, the low-balance threshold. */
export interface Settings {
  readonly window: RenewalWindow;
  /** The balance below which the header warns (this profile's), or null for no warning. */
  readonly lowBalance: number | null;
  /** The lines browser shows the Note column (notes are kept on this machine). */
  readonly noteColumn?: boolean;
}

export interface SettingsApi {
  read(): Settings;
  /** Saves a change; an error message when it could not be saved, or null. */
  save(patch: Partial<Settings>): string | null;
}

export interface ServiceDeps {
  readonly client: ServiceClient;
  readonly target: Target;
  readonly readOnly?: boolean;
  readonly now?: () => number;
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
  /** Open jobs recorded for this service under another account id (services/changes/intent-log.ts). */
  readonly foreignIntents?: () => readonly ForeignJob[];
  /** What the app layer found wrong while opening this service's files, said once at start. */
  readonly startProblems?: readonly string[];
  /** Where unexpected errors go (the log file); never the screen. */
  readonly logError?: (context: string, err: unknown) => void;
}

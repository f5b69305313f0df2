/**
 * What the services need from outside, given by the app layer (app/connection.ts, app/run.tsx) or a
 * test: the client, the target, the files (journal, intent log, notes), the config's profiles and
 * settings, a clock. Both front-ends build on these; the store adds its own (store/deps.ts).
 */
import type { RetryPolicy } from '../api/retry';
import type { LinkTemplates } from '../domain/links';
import type { Template } from '../domain/templates';
import type { BalanceMemory } from './balance-watch';
import type { ForeignJob, IntentLog } from './changes/intent-log';
import type { Journal } from './changes/journal';
import type { ServiceClient } from './client';
import type { FindAcrossApi } from './find-lines';
import type { Notes } from './notes';
import type { ProfilesApi, SettingsApi } from './settings';
import type { Target } from './target';

export interface ServiceDeps {
  readonly client: ServiceClient;
  readonly target: Target;
  readonly readOnly?: boolean;
  readonly now?: () => number;
  /** Where every change is recorded (a JSONL file in the data directory). */
  readonly journal?: Journal;
  /** The last balance seen per account, to tell a move no journal entry explains (memory only when absent). */
  readonly balances?: BalanceMemory;
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
  /** Connection-link templates of this service (domain/links.ts; the defaults when absent). */
  readonly links?: LinkTemplates;
  /** `:find`: every profile's service searched for a username or id. */
  readonly findAcross?: FindAcrossApi;
  /** Open jobs recorded for this service under another account id (services/changes/intent-log.ts). */
  readonly foreignIntents?: () => readonly ForeignJob[];
  /** What the app layer found wrong while opening this service's files, said once at start. */
  readonly startProblems?: readonly string[];
  /** Where unexpected errors go (the log file); never the screen. */
  readonly logError?: (context: string, err: unknown) => void;
}

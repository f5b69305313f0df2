import type { StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/client';
import type { AppState } from './app-store';
import type { JobLog } from './job-log';
import type { Journal } from './journal';
import type { Target } from './types';

/** What the store needs from outside: the client (only its endpoint functions), the target, a clock. */
export type StoreClient = Omit<ApiClient, 'close' | 'baseUrl'>;

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
  /** Where a running bulk job is written down, to resume after a crash. */
  readonly jobLog?: JobLog;
  /** Requests in flight at most during a bulk job. */
  readonly bulkConcurrency?: number;
  /** Writes an export file (results, journal) and says where. */
  readonly writeExport?: (name: string, content: string) => string;
  /** Where unexpected errors go (the log file); never the screen. */
  readonly logError?: (context: string, err: unknown) => void;
}

export type SetState = StoreApi<AppState>['setState'];
export type GetState = StoreApi<AppState>['getState'];

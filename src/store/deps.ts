import type { StoreApi } from 'zustand/vanilla';
import type { RunProgram, UserCommand } from '../domain/user-commands';
import type { ViewsApi } from '../present/saved-views';
import type { ChangeService } from '../services/changes/service';
import type { ServiceClient } from '../services/client';
import type { ServiceDeps } from '../services/deps';
import type { AppState } from './app-store';

export type { FindAcrossApi } from '../services/find-lines';
export type { ProfileSummary, Settings, SettingsApi } from '../services/settings';

/** The client as the store sees it: only its endpoint functions. */
export type StoreClient = ServiceClient;

/** What the store needs from outside: what the services need, and the screens' own settings. */
export interface StoreDeps extends ServiceDeps {
  /** Lines per page before the terminal's height is known. */
  readonly pageSize?: number;
  /** Delay between the last keystroke and the search it triggers. */
  readonly searchDebounceMs?: number;
  /** The app keeps checking open changes in the background during their hold window (not scripts). */
  readonly watch?: boolean;
  /**
   * The header's credit runway is read at start (the app; a store made for one task, or a test that
   * counts requests, leaves it off: it is then read when the account screen or `:runway` asks).
   */
  readonly runwayAtStart?: boolean;
  /** The first background check's delay (5 s; tests shorten it); each next one doubles, to a minute. */
  readonly watchFirstMs?: number;
  /** A line to open once the first load is done (a find switched profiles to show it). */
  readonly openLine?: LineToOpen;
  /** Saved views and the search history (the config's; none in a test that gives none). */
  readonly views?: ViewsApi;
  /**
   * Called when a walk that keeps what it reads starts (`A`: 100,000 lines, a page at a time); the
   * function it returns when the walk ends, stopped or failed. The app lifts V8's memory flags
   * meanwhile (app/run.tsx: under them such a walk spent most of its time collecting garbage).
   */
  readonly heavyWork?: () => () => void;
  /** The change service (made from these deps by the store unless given: a command shares its own). */
  readonly changes?: ChangeService;
  /** Runs a program of the user's (the config's `commands`): app/run-program.ts. */
  readonly runProgram?: RunProgram;
  /** The config's commands of yours and what was left out of `keys` and `commands` (commands/user-keys.ts). */
  readonly userKeys?: { readonly commands: readonly UserCommand[]; readonly problems: readonly string[] };
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

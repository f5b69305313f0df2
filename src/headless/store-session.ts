import type { IntentLog } from '../services/changes/intent-log';
import { type AppStore, createAppStore } from '../store/app-store';
import type { Failure } from './output';
import { type Ctx, type Lookups, withServices } from './session';

/**
 * The screens' store for a command, kept apart from session.ts so that a command on the services
 * alone (every read) never loads it: `test/headless/no-store.test.ts` checks the import graph.
 */

export interface StoreHelp extends Lookups {
  /** The service the command runs on, as the JSON of a change names it. */
  target: { readonly kind: 'sandbox' | 'remote'; readonly label: string };
  /** A failed load's message as a failure, with the kind of the last error the client met. */
  failure: (message: string) => Failure;
  /** This account's intent log on disk (`pending` lists it, sets a damaged file aside). */
  intents: IntentLog | null;
  /** The hold window in force (the config's `holdMinutes`, or the default). */
  holdMs: number;
}

/**
 * The screens' store on the services, for the commands not yet moved onto the services alone (the
 * change commands): the same files, and what the app would flash (a journal write that failed,
 * items the server sent unreadable) goes to stderr.
 */
export function withStore(
  ctx: Ctx,
  body: (store: AppStore, help: StoreHelp) => Promise<number>,
): Promise<number> {
  return withServices(ctx, async (sv) => {
    const store = createAppStore({
      client: sv.client,
      target: sv.target,
      ...(sv.journal ? { journal: sv.journal } : {}),
      ...(sv.intents ? { intents: sv.intents } : {}),
      ...(sv.foreignIntents ? { foreignIntents: sv.foreignIntents } : {}),
      ...(sv.settings ? { settings: sv.settings } : {}),
      ...(sv.writeExport ? { writeExport: sv.writeExport } : {}),
      notes: sv.notes,
      templates: sv.templates,
      holdMs: sv.holdMs,
      logError: sv.logError,
      pageSize: 100,
      now: sv.now,
      sleep: sv.sleep,
    });
    sv.onStop((graceMs) => store.getState().shutdown(graceMs));
    const unflash = store.subscribe((s, prev) => {
      if (s.flash && s.flash !== prev.flash && (s.flash.tone === 'error' || s.flash.tone === 'warning'))
        ctx.out.message(s.flash.text, 'yellow');
    });
    try {
      return await body(store, {
        target: { kind: sv.target.kind, label: sv.target.label },
        failure: sv.failure,
        intents: sv.intents,
        holdMs: sv.holdMs,
        lookup: sv.lookup,
        lookupOne: sv.lookupOne,
      });
    } finally {
      unflash();
    }
  });
}

/** Resolves once `check` holds for the store's state (checked now and after every change). */
export function until(
  store: AppStore,
  check: (s: ReturnType<AppStore['getState']>) => boolean,
): Promise<void> {
  if (check(store.getState())) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = store.subscribe((s) => {
      if (check(s)) {
        stop();
        resolve();
      }
    });
  });
}

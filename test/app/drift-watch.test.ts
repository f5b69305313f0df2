/**
 * One drift watch for both front-ends (app/drift-watch.ts): the screens' (store/runway-slice.ts
 * `storeWatch`) is the commands' plus the app's own "busy" (journal writes waiting, outcomes unknown).
 */
import { describe, expect, it } from 'vitest';
import { driftWatchOf } from '../../src/app/drift-watch';
import { memoryBalances } from '../../src/services/balance-watch';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import type { GetState, StoreDeps } from '../../src/store/deps';
import { storeWatch } from '../../src/store/runway-slice';

const ID = 'https://panel.example#0123456789abcdef';

describe('the drift watch, built once', () => {
  it('none without the balance memory; otherwise the account, its service, its files and clock', () => {
    expect(driftWatchOf({ target: { id: ID }, balances: null })).toBeNull();
    const balances = memoryBalances();
    const journal = memoryJournal();
    const intents = memoryIntentLog();
    const now = () => 42;
    const w = driftWatchOf({ target: { id: ID }, balances, journal, intents, now })!;
    expect(w).toMatchObject({ balances, targetId: ID, journal, intents, now });
    expect(w.busy).toBeUndefined();
    expect(w.sameService?.('https://panel.example#fedcba9876543210')).toBe(true);
    expect(w.sameService?.(ID)).toBe(false);
    // Files a store left out are none, and the clock is the real one.
    const bare = driftWatchOf({ target: { id: ID }, balances })!;
    expect([bare.journal, bare.intents, bare.now]).toEqual([null, null, Date.now]);
  });

  it("the screens' watch is the commands' with the app's busy question added", () => {
    const files = { target: { id: ID }, balances: memoryBalances(), journal: memoryJournal(), now: () => 7 };
    const state = { journalWaiting: 0, unsettled: new Map() };
    const screens = storeWatch(files as unknown as StoreDeps, (() => state) as unknown as GetState)!;
    const { busy, sameService: _s, ...rest } = screens;
    const { sameService: _c, ...commands } = driftWatchOf(files)!;
    expect(rest).toEqual(commands);
    expect(busy?.()).toBeNull();
    state.journalWaiting = 1;
    expect(busy?.()).toBe('a journal entry of this machine is not written yet');
    expect(
      storeWatch({ ...files, balances: undefined } as unknown as StoreDeps, (() => state) as never),
    ).toBeNull();
  });
});

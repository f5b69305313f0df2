/**
 * The drift watch in the app's store, against the sandbox over HTTP: the app's own change (journaled,
 * through the change service) is never drift, whenever the balance is read around it; a change by
 * another client with the same key is said, with its amount.
 */
import { describe, expect, it, vi } from 'vitest';
import { runPalette } from '../../src/commands/palette';
import { memoryBalances } from '../../src/services/balance-watch';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { selectRunway } from '../../src/store/runway-slice';
import { loaded } from '../../src/store/types';
import { selectScreen } from '../../src/store/view-stack';
import { NO_FX, openQuoted, storeOnSandbox } from '../helpers/app';

const until = (check: () => boolean, timeout = 10_000) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error('not yet');
    },
    { timeout, interval: 10 },
  );

describe('balance drift in the store', () => {
  it("the app's own extend is explained by its journal; another client's is said with the amount", async () => {
    const balances = memoryBalances();
    const env = await storeOnSandbox(
      { lines: 30 },
      { journal: memoryJournal(), intents: memoryIntentLog(), balances },
    );
    const s = () => env.store.getState();
    await s().start();
    expect(s().drift?.verdict.kind).toBe('first');
    await s().loadCatalog();
    const [mine, theirs] = (await env.client.listLines({ limit: 10, type: 'premium', status: 'active' }))
      .lines;

    await openQuoted(env.store, { op: 'extend', line: mine! });
    await s().confirmAction();
    expect(s().action?.phase).toBe('done');
    await s().loadAccount();
    expect(s().drift?.verdict.kind).toBe('steady');

    const before = (await env.client.me()).credits;
    await env.client.extendLine({ id: theirs!.id, duration: 1 });
    const spent = before - (await env.client.me()).credits;
    await s().loadAccount();
    expect(s().drift?.verdict).toMatchObject({ kind: 'drift', difference: -spent });
    // Said once: the next read judges from there.
    await s().loadAccount();
    expect(s().drift?.verdict.kind).toBe('steady');
  });
});

describe(':runway', () => {
  it(':runway 14 reads the runway over 14 days and opens the account screen', async () => {
    const { store } = await storeOnSandbox({ lines: 30 });
    const s = () => store.getState();
    await s().start();
    await s().loadCatalog();
    // Not read at start unless asked (the app asks); the account screen reads it.
    expect(s().runway.status).toBe('idle');
    s().openPalette();
    s().setPaletteInput('runway');
    runPalette(s(), NO_FX);
    await until(() => s().runway.status === 'ready');
    expect(selectRunway(s())?.days).toBe(30);
    s().openPalette();
    s().setPaletteInput('runway 14');
    runPalette(s(), NO_FX);
    expect(s().flash?.tone).not.toBe('error');
    expect(selectScreen(s()).id).toBe('account');
    await until(() => loaded(s().runway)?.days === 14 && s().runway.status === 'ready');
    expect(selectRunway(s())).toMatchObject({ days: 14, balance: loaded(s().account)!.credits });
  });
});

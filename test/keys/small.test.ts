/**
 * A terminal too small for the layout (issue 28): the sentence names exactly the keys that work
 * then, and no other key acts (the screens beneath are not shown, so none of their keys may run).
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS, keyLabel } from '../../src/commands/keymap';
import { handleSmallInput, resolveSmallKey, smallKeyLabels } from '../../src/keys/small';
import { isTooSmall, MIN_COLUMNS, MIN_ROWS, tooSmallText } from '../../src/present/min-size';
import { viewIds } from '../../src/store/view-stack';
import { NO_FX, storeOnSandbox } from '../helpers/app';

const ALL_KEYS = [...new Set(COMMANDS.flatMap((c) => c.keys))];
const ink = (input: string, extra: Record<string, boolean> = {}) => [input, extra] as const;

describe('a terminal too small for the layout', () => {
  it('is measured against the named minimum', () => {
    expect(isTooSmall(MIN_COLUMNS, MIN_ROWS)).toBe(false);
    expect(isTooSmall(MIN_COLUMNS - 1, MIN_ROWS)).toBe(true);
    expect(isTooSmall(MIN_COLUMNS, MIN_ROWS - 1)).toBe(true);
    expect(tooSmallText(50, 10, ['q', 'Ctrl-C'])).toBe(
      `linedesk needs at least ${MIN_COLUMNS}×${MIN_ROWS}; this terminal is 50×10. Make it larger, or press q or Ctrl-C to quit.`,
    );
  });

  it('the keys the sentence names are exactly the keys that resolve while too small', () => {
    const working = ALL_KEYS.filter((k) => resolveSmallKey(k) !== undefined).map(keyLabel);
    expect(working.sort()).toEqual([...smallKeyLabels()].sort());
    expect(working.length).toBeGreaterThan(0);
    const said = tooSmallText(50, 10, smallKeyLabels());
    for (const label of working) expect(said).toContain(` ${label}`);
  });

  it('a screen key does nothing; q quits', async () => {
    const { store } = await storeOnSandbox({ lines: 40 });
    await store.getState().start();
    const before = viewIds(store.getState());
    const cursor = store.getState().cursor;
    for (const [input, key] of [ink('j'), ink(':'), ink('?'), ink('', { escape: true }), ink('e')])
      handleSmallInput(store, input, key as never, NO_FX);
    expect(viewIds(store.getState())).toEqual(before);
    expect(store.getState().cursor).toBe(cursor);
    expect(store.getState().quitRequested).toBe(false);
    handleSmallInput(store, 'q', {} as never, NO_FX);
    expect(store.getState().quitRequested).toBe(true);
  });
});

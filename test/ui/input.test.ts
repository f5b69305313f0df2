import { describe, expect, it, vi } from 'vitest';
import { handleInput } from '../../src/ui/input';
import { storeOnSandbox } from '../helpers/app';

const NO_KEY = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  tab: false,
  backspace: false,
  delete: false,
};
const fx = { copy: () => {} };

describe('input arriving as one chunk (fast typing, slow links)', () => {
  it('runs each key of a chunk in turn', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines();
    handleInput(store, 'jjj', NO_KEY, fx);
    expect(store.getState().cursor).toBe(3);
  });

  it('types the rest of a chunk into the field its first key opened', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines();
    handleInput(store, '/smith', NO_KEY, fx);
    expect(store.getState().searchOpen).toBe(true);
    expect(store.getState().searchDraft).toBe('smith');
    await vi.waitFor(() => expect(store.getState().query.search).toBe('smith'));
  });

  it('control characters in a chunk are keys: Enter applies, Ctrl-C quits', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines();
    handleInput(store, '/ab\r', NO_KEY, fx);
    expect(store.getState().searchOpen).toBe(false);
    expect(store.getState().query.search).toBe('ab');
    handleInput(store, ':qu\u0003', NO_KEY, fx);
    expect(store.getState().paletteInput).toBe('qu');
    expect(store.getState().quitRequested).toBe(true);
  });

  it('stops at an ESC rather than guess at a sequence', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().loadLines();
    handleInput(store, 'j\u001b[Bj', NO_KEY, fx);
    expect(store.getState().cursor).toBe(1);
  });
});

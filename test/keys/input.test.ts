import { describe, expect, it, vi } from 'vitest';
import { handleInput } from '../../src/keys/input';
import { renderApp, storeOnSandbox, visibleUsernames } from '../helpers/app';

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
const fx = { copy: async () => ({ ok: true as const, via: 'nowhere' }) };

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

  // The field's own input handler runs after the app's: a chunk holding text and a control key must
  // not act on the field before its text is in (measured: Enter searched for nothing, or created a
  // line with a random username instead of the one typed).
  it('text and Enter in one chunk in an open search field: Enter searches for that text', async () => {
    const app = await renderApp({}, { searchDebounceMs: 60_000 });
    await app.waitFrame((f) => f.includes('of 60'));
    const prefix = visibleUsernames(app.frame())[2]!.slice(0, 7);
    await app.press('lines.search');
    await app.waitFrame((f) => f.includes('search:'));
    app.ui.stdin.write(`${prefix}\r`);
    await app.waitFrame((f) => f.includes(`search "${prefix}"`));
    expect(app.store.getState().searchOpen).toBe(false);
  });

  it('text and Enter in one chunk in a form field: the form is checked with that text', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —'));
    await app.press('form.next');
    await app.press('form.next'); // username
    app.ui.stdin.write('chunkprobe01\r');
    await app.waitFrame((f) => f.includes('quoted by the server'));
    expect(app.frame()).toContain('chunkprobe01');
    expect(app.store.getState().form?.values.username).toBe('chunkprobe01');
  });

  it('text and Backspace in one chunk in a field: both count', async () => {
    const app = await renderApp({}, { searchDebounceMs: 60_000 });
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('lines.search');
    await app.waitFrame((f) => f.includes('search:'));
    app.ui.stdin.write('abcd\u007f');
    await app.waitFrame((f) => f.includes('search: abc'));
    expect(app.store.getState().searchDraft).toBe('abc');
  });
});

describe('text fields: the app edits them at a caret (no key typed twice or lost)', () => {
  it('search: arrows move the caret, Ctrl-W and Ctrl-U delete, Backspace takes a whole emoji, Ctrl-G types nothing', async () => {
    const app = await renderApp({}, { searchDebounceMs: 60_000 });
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('lines.search');
    await app.waitFrame((f) => f.includes('search:'));
    const draft = () => app.store.getState().searchDraft;
    await app.type('smith jones');
    await vi.waitFor(() => expect(draft()).toBe('smith jones'));
    app.ui.stdin.write('\u0017'); // Ctrl-W
    await vi.waitFor(() => expect(draft()).toBe('smith '));
    app.ui.stdin.write('\u001b[D\u001b[D'); // ← ←
    await app.type('X');
    await vi.waitFor(() => expect(draft()).toBe('smitXh '));
    app.ui.stdin.write('\u0015'); // Ctrl-U: everything before the caret
    await vi.waitFor(() => expect(draft()).toBe('h '));
    app.ui.stdin.write('\u0005😀\u0007'); // Ctrl-E, an emoji, Ctrl-G (no command here)
    await vi.waitFor(() => expect(draft()).toBe('h 😀'));
    app.ui.stdin.write('\u007f');
    await vi.waitFor(() => expect(draft()).toBe('h '));
    expect(draft().isWellFormed()).toBe(true);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { storeOnSandbox } from '../helpers/app';

const settle = async (store: Awaited<ReturnType<typeof storeOnSandbox>>['store']) => {
  await vi.waitFor(() => expect(store.getState().lines.status).toBe('ready'));
};
const at = (store: Awaited<ReturnType<typeof storeOnSandbox>>['store']) =>
  store.getState().offset + store.getState().cursor;

describe('a held key keeps moving: no press is dropped while a page loads', () => {
  it('↓ 25 times across two page edges, then ↑ 17 times, all sent before any page lands', async () => {
    const { store } = await storeOnSandbox({ lines: 300 });
    await store.getState().loadLines();
    for (let i = 0; i < 25; i++) store.getState().moveCursor(1);
    await settle(store);
    await vi.waitFor(() => expect(at(store)).toBe(25));
    for (let i = 0; i < 17; i++) store.getState().moveCursor(-1);
    await settle(store);
    await vi.waitFor(() => expect(at(store)).toBe(8));
    expect(store.getState().offset).toBe(0);
    // Mixed with page keys: PgDn then ↓ 3 counts from the page on its way.
    store.getState().pageNext();
    for (let i = 0; i < 3; i++) store.getState().moveCursor(1);
    await settle(store);
    await vi.waitFor(() => expect(at(store)).toBe(21));
  });

  it('stops at the ends of the list, held or not', async () => {
    const { store } = await storeOnSandbox({ lines: 35 });
    await store.getState().loadLines();
    for (let i = 0; i < 80; i++) store.getState().moveCursor(1);
    await settle(store);
    await vi.waitFor(() => expect(at(store)).toBe(34));
    for (let i = 0; i < 80; i++) store.getState().moveCursor(-1);
    await settle(store);
    await vi.waitFor(() => expect(at(store)).toBe(0));
  });
});

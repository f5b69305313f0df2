import { afterEach, vi } from 'vitest';

/** Run after the test that registered them, last first (proxies and clients a test opened). */
export const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Resolves once `check` holds, polled (never a fixed sleep); fails after `timeout` ms. */
export const until = (check: () => boolean, timeout = 10_000) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error('not yet');
    },
    { timeout, interval: 5 },
  );

/**
 * A command a signal stopped exits with the signal's code even when its work settles with 0 before
 * the stop's exit: the code cache's loader saves only after a 0, and a caller reads the code.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runHeadlessProcess } from '../../src/headless/process';

afterEach(() => vi.restoreAllMocks());

describe('runHeadlessProcess after a signal', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s during the run: its code, not the run 0', async (signal, code) => {
    // The stop's own exit is held off: the run settles first, as it can under load.
    vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const got = await runHeadlessProcess(['account', '--json'], null, async () => {
      process.emit(signal, signal);
      return 0;
    });
    expect(got).toBe(code);
  });
});

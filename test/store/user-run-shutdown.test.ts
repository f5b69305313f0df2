/**
 * A program of yours still running when the app goes away (quit, or a profile switch, which keeps
 * the process) is stopped with it, not left to run to its own timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyUserKeys, resetUserKeys } from '../../src/commands/user-keys';
import type { ProgramRun } from '../../src/domain/user-commands';
import { storeOnSandbox } from '../helpers/app';
import { until } from '../helpers/wait';

afterEach(() => resetUserKeys());

describe('the app going away', () => {
  it('stops a program of yours still running', async () => {
    const runs: ProgramRun[] = [];
    const runProgram = (run: ProgramRun) =>
      new Promise<never>(() => {
        runs.push(run);
      });
    const userKeys = applyUserKeys(
      { commands: [{ name: 'slow', scope: 'line', program: '/bin/slow', timeoutSeconds: 600 }] },
      'config.json',
    );
    const env = await storeOnSandbox({ lines: 40 }, { userKeys, runProgram });
    await env.store.getState().loadLines({ offset: 0 });
    env.store.getState().runUserCommand('slow');
    await until(() => runs.length === 1);
    expect(runs[0]!.signal?.aborted).toBe(false);
    await env.store.getState().shutdown(0);
    expect(runs[0]!.signal?.aborted).toBe(true);
  });
});

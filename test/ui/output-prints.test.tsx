/**
 * The output pager while a run prints (a command of yours on the marked lines): once its text fills
 * the window, more text leaves the rows in view as they are, so the page key stays offered on every
 * frame; it was dropped for a frame at each print (its count was drawn for the text's old length) and
 * offered again on the next.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { applyUserKeys, resetUserKeys } from '../../src/commands/user-keys';
import type { ProgramResult, RunProgram } from '../../src/domain/user-commands';
import { selectScreen } from '../../src/store/view-stack';
import { renderApp } from '../helpers/app';

afterEach(() => resetUserKeys());

/** A program the test ends, one run at a time (a release before its run waits for it): each ends
 *  with forty rows of output, more than the window shows. */
function gated(): { run: RunProgram; release: () => void } {
  const result: ProgramResult = {
    output: Array.from({ length: 40 }, (_, i) => `output row ${i + 1}`).join('\n'),
    exitCode: 0,
    signal: null,
    timedOut: false,
    stopped: false,
    cut: false,
    error: null,
  };
  const runs: (() => void)[] = [];
  let permits = 0;
  return {
    run: () =>
      new Promise((resolve) => {
        if (permits > 0) {
          permits--;
          resolve(result);
        } else runs.push(() => resolve(result));
      }),
    release: () => {
      const next = runs.shift();
      if (next) next();
      else permits++;
    },
  };
}

describe('the output pager while a run prints', () => {
  it('offers its page key on every frame once its text fills the window', async () => {
    const program = gated();
    const userKeys = applyUserKeys({ commands: [{ name: 'crm', scope: 'marks', program: 'crm-sync' }] });
    const app = await renderApp({ lines: 40 }, { userKeys, runProgram: program.run });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    const s = () => app.store.getState();
    for (let i = 0; i < 3; i++) {
      await app.press('lines.mark');
      await app.press('lines.down');
    }
    await app.waitFrame(() => s().marked.size === 3);
    await app.press('lines.marks');
    await app.waitFrame(() => selectScreen(s()).id === 'marks');
    s().runUserCommand('crm');
    await app.waitFrame((f) => f.includes('once for each of 3 lines'));
    await app.confirm('output.run');
    const pgDn = `${keyHintText('output.pageDown')} `;
    program.release();
    await app.waitFrame((f) => s().userRun?.done === 1 && f.includes(pgDn));
    const from = app.ui.frames.length;
    program.release();
    await app.waitFrame((f) => s().userRun?.done === 2 && f.includes(pgDn));
    program.release();
    await app.waitFrame((f) => s().userRun?.phase === 'done' && f.includes(pgDn));
    const footers = app.ui.frames.slice(from).map((f) => f.trimEnd().split('\n').at(-1) ?? '');
    expect(footers.length).toBeGreaterThan(0);
    expect(footers.filter((f) => !f.includes(pgDn))).toEqual([]);
  });
});

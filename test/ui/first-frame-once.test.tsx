/**
 * The app's first frame is drawn once: the terminal's size goes to the store as the app mounts
 * (ui/use-terminal-size.ts), and the store hearing the size the frame was just drawn at does not draw
 * the whole app again at start.
 */
import { render } from 'ink-testing-library';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { StoreProvider } from '../../src/ui/store-context';
import { NO_FX, storeOnSandbox } from '../helpers/app';

describe('the first frame', () => {
  it('is drawn once, and the store then has the size it was drawn at', async () => {
    const env = await storeOnSandbox({ lines: 40 }, {});
    let commits = 0;
    const ui = render(
      <StoreProvider store={env.store}>
        <Profiler id="app" onRender={() => commits++}>
          <App effects={NO_FX} />
        </Profiler>
      </StoreProvider>,
    );
    try {
      expect(env.store.getState().terminalSize).toEqual({ columns: 100, rows: 24 });
      expect(commits).toBe(1);
    } finally {
      ui.unmount();
    }
  });
});

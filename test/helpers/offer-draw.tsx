/**
 * The resume dialog drawn alone, at a given size, on a store whose offer a test sets (its jobs, and
 * where marking their lines again stands): `offerStore`, then `drawOffer`.
 */
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import type { Recovered } from '../../src/services/changes/service-types';
import type { MarkAgain } from '../../src/store/changes/changes-slice';
import { ResumeDialog } from '../../src/ui/overlays/ResumeDialog';
import { StoreProvider } from '../../src/ui/store-context';
import { storeOnSandbox } from './app';

/** A store on a small sandbox showing the offer of `jobs`; `clock.offset` moves its clock on (a
 *  dialog's Enter counts once it has been read: CONFIRM_ARM_MS). */
export async function offerStore(jobs: readonly Recovered[], marks: ReadonlyMap<string, MarkAgain>) {
  const clock = { offset: 0 };
  const { store } = await storeOnSandbox({ lines: 40 }, { now: () => Date.now() + clock.offset });
  store.setState({ recovery: { checking: false, jobs }, markedAgain: marks });
  store.getState().pushView({ id: 'resume' });
  return { store, clock };
}

/** The dialog alone, `width` × `height` given to it; `resize` draws it again at another height. */
export function drawOffer(
  store: Awaited<ReturnType<typeof offerStore>>['store'],
  width: number,
  height: number,
) {
  const tree = (h: number) => (
    <StoreProvider store={store}>
      <Box width={width} flexDirection="column">
        <ResumeDialog width={width} height={h} />
      </Box>
    </StoreProvider>
  );
  const ui = render(tree(height));
  return {
    ui,
    frame: () => stripAnsi(ui.lastFrame() ?? ''),
    resize: (h: number) => ui.rerender(tree(h)),
  };
}

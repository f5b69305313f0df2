import { Box, useApp as useInkApp, useInput, useIsScreenReaderEnabled } from 'ink';
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { UiEffects } from '../commands/effects';
import { handleInput } from '../keys/input';
import { handleSmallInput } from '../keys/small';
import { bodyRows as bodyRowsFor, frameRows as frameRowsFor, linesPageSize } from '../present/frame';
import { isTooSmall } from '../present/min-size';
import { spokenPageSize } from '../present/speech';
import { selectLocalRows } from '../store/notes-slice';
import { viewIds } from '../store/view-stack';
import { FlashLine, selectFlashRows } from './layout/FlashLine';
import { Footer } from './layout/Footer';
import { Header } from './layout/Header';
import { TooSmall } from './layout/TooSmall';
import { useApp, useAppStore } from './store-context';
import { useStoreTerminalSize } from './use-terminal-size';
import { bodyOf, VIEWS } from './views';

export function App({ effects }: { readonly effects: UiEffects }) {
  const store = useAppStore();
  const { exit } = useInkApp();
  // The size as the store has it: the frame and the keys its footer offers are decided at one size.
  const { columns, rows } = useStoreTerminalSize();
  const frameRows = frameRowsFor(rows);
  // A flash longer than the width takes a second row (a path it names is shown whole) from the body.
  const flashRows = useApp(selectFlashRows(columns));
  const bodyRows = bodyRowsFor(rows) - (flashRows - 1);
  const ids = useApp(useShallow(viewIds));
  const quitRequested = useApp((s) => s.quitRequested);

  // The page size follows the terminal's height, so a page always fits, with the lines found by
  // their note under it.
  const localRows = useApp(selectLocalRows);
  const isSpoken = useIsScreenReaderEnabled();
  const tooSmall = isTooSmall(columns, rows);
  // What a list fits, read aloud, depends on its rows in view (store/drawn-for.ts).
  useEffect(() => store.getState().setSpoken(isSpoken), [store, isSpoken]);
  useEffect(() => {
    // While too small nothing is drawn: the page keeps its size until the terminal grows.
    if (tooSmall) return;
    const size = linesPageSize(rows) - localRows;
    store.getState().setPageSize(isSpoken ? spokenPageSize(size, columns) : size);
  }, [rows, columns, localRows, store, isSpoken, tooSmall]);

  useEffect(() => {
    if (quitRequested) exit();
  }, [quitRequested, exit]);

  // The one input handler of the app (while the terminal is too small, only its own keys).
  useInput((input, key) =>
    tooSmall ? handleSmallInput(store, input, key, effects) : handleInput(store, input, key, effects),
  );
  if (tooSmall) return <TooSmall columns={columns} rows={rows} />;

  const width = columns;
  // The view stack, drawn from its registrations: the topmost view that fills the body, and the
  // overlays opened over it (the palette, the copy menu) under it, each taking its rows.
  const { base, overlays } = bodyOf(ids);
  const Body = VIEWS[base].component;
  const overlayRows = overlays.reduce((n, id) => n + (VIEWS[id].overlayRows ?? 0), 0);

  return (
    <Box flexDirection="column" width={width} height={frameRows}>
      <Header width={width} />
      {/* Vertical clip only: rows are already cut to the width, and a horizontal clip would make
          Ink slice every line of every frame again (measured: a fifth of a cursor move). */}
      <Box flexDirection="column" height={bodyRows} overflowY="hidden">
        <Body width={width} height={bodyRows - overlayRows} />
        {overlays.map((id) => {
          const Overlay = VIEWS[id].component;
          return <Overlay key={id} width={width} height={VIEWS[id].overlayRows ?? 0} />;
        })}
      </Box>
      <FlashLine width={width} />
      <Footer width={width} />
    </Box>
  );
}

import { useStdout } from 'ink';
import { useEffect, useLayoutEffect, useState } from 'react';
import type { TerminalSize } from '../store/ui-slice';
import { useApp, useAppStore } from './store-context';

/** Test renderers have no rows: 24 is assumed. (Ink's useWindowSize asks the process's own terminal
 *  when the stream has no size, so a test's frame would depend on the terminal vitest runs in.) */
const sizeOf = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: stdout.columns || 80,
  rows: stdout.rows || 24,
});

/** Columns and rows, following resizes, for what is drawn before the store exists (the welcome). */
export function useTerminalSize(): TerminalSize {
  const stdout = useStdout().stdout as NodeJS.WriteStream;
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    // The same size again draws nothing; read once as it subscribes, so a resize between the first
    // draw and this effect is not missed.
    const onResize = () =>
      setSize((was) => {
        const now = sizeOf(stdout);
        return now.columns === was.columns && now.rows === was.rows ? was : now;
      });
    onResize();
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/**
 * The app's columns and rows: the terminal's size goes to the store (ui-slice `terminalSize`) as the
 * terminal says it changed, so the frame drawn at the new size and the keys its footer offers read
 * one size: a list's count of rows drawn at the size before is no count there (use-page-rows.ts).
 * Until the store has it (the first frame), the terminal's own.
 */
export function useStoreTerminalSize(): TerminalSize {
  const stdout = useStdout().stdout as NodeJS.WriteStream;
  const store = useAppStore();
  // The size the first frame is drawn at goes to the store as this very object: the app is not drawn
  // again at start only to hear the size it was drawn at (a size it reads again is another object).
  const [first] = useState(() => sizeOf(stdout));
  const size = useApp((s) => s.terminalSize ?? first);
  useLayoutEffect(() => {
    const follow = () => store.getState().setTerminalSize(sizeOf(stdout));
    store.getState().setTerminalSize(first);
    follow();
    stdout.on('resize', follow);
    return () => {
      stdout.off('resize', follow);
    };
  }, [stdout, store, first]);
  return size;
}

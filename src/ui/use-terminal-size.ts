import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/**
 * Columns and rows, following resizes. Test renderers have no rows: 24 is assumed. (Ink's
 * useWindowSize asks the process's own terminal when the stream has no size, so a test's frame
 * would depend on the terminal vitest runs in.)
 */
export function useTerminalSize(): { columns: number; rows: number } {
  const stdout = useStdout().stdout as NodeJS.WriteStream;
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  });
  return size;
}

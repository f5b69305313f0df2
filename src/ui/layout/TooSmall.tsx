import { Box, Text } from 'ink';
import { smallKeyLabels } from '../../keys/small';
import { tooSmallText } from '../../present/min-size';
import { useApp } from '../store-context';

/**
 * What a terminal smaller than the layout gets instead of a frame: one sentence with the size it
 * needs and the keys that work (keys/small.ts). The stack, cursor and dialogs wait in the store and
 * come back as they were when it grows.
 */
export function TooSmall({ columns, rows }: { readonly columns: number; readonly rows: number }) {
  const isJobRunning = useApp((s) => s.bulk?.phase === 'running');
  return <TooSmallText columns={columns} rows={rows} isJobRunning={isJobRunning} />;
}

/**
 * The sentence itself, with no store (the welcome screen has none). Cut to the rows there are (a
 * frame as tall as the terminal makes Ink clear the screen at each frame).
 */
export function TooSmallText({
  columns,
  rows,
  isJobRunning = false,
}: {
  readonly columns: number;
  readonly rows: number;
  readonly isJobRunning?: boolean;
}) {
  return (
    <Box width={columns} height={Math.max(1, rows - 1)} overflowY="hidden">
      <Text>{tooSmallText(columns, rows, smallKeyLabels(), isJobRunning)}</Text>
    </Box>
  );
}

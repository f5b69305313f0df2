import { Text, useIsScreenReaderEnabled } from 'ink';
import { memo } from 'react';
import type { LineListItem } from '../../api/contract';
import { fitWidth } from '../../domain/format';
import type { LaidOut } from '../../present/lines-columns';
import { lineSentence } from '../../present/speech';
import { glyph } from '../glyphs';
import { color } from '../theme';
import { SpokenRow } from './SpokenRow';

interface LineRowProps {
  readonly line: LineListItem;
  readonly columns: readonly LaidOut<LineListItem>[];
  readonly isCursor: boolean;
  readonly isMarked: boolean;
  readonly now: number;
}

/** One table row; memoised so moving the cursor re-renders two rows, not the page. */
export const LineRow = memo(function LineRow({ line, columns, isCursor, isMarked, now }: LineRowProps) {
  // A screen reader hears the row as one sentence, from the columns the table shows.
  const isSpoken = useIsScreenReaderEnabled();
  if (isSpoken) {
    const shown = columns.map((c) => c.column);
    return <SpokenRow text={lineSentence(shown, line, now, { isMarked })} isSelected={isCursor} />;
  }
  return (
    <Text inverse={isCursor} wrap="truncate">
      {rowRuns(line, columns, isCursor, isMarked, now)}
    </Text>
  );
});

/**
 * The row's text in runs of one colour: the cursor and the mark are characters too (without colour,
 * NO_COLOR, nothing is lost); cells side by side in the same colour (or none) are one string. A
 * page is drawn as ≈ 5 nodes a row, not a `Text` per cell (22 React fibers and 20 text nodes a row,
 * each measured and squashed by Ink twice a frame: the first frame's largest part, issue #27).
 */
function rowRuns(
  line: LineListItem,
  columns: readonly LaidOut<LineListItem>[],
  isCursor: boolean,
  isMarked: boolean,
  now: number,
): React.ReactNode[] {
  const runs: React.ReactNode[] = [];
  let text = isCursor ? glyph('cursor') : ' ';
  let tone: string | undefined;
  const add = (next: string | undefined, cell: string) => {
    if (next === tone) {
      text += cell;
      return;
    }
    flush();
    tone = next;
    text = cell;
  };
  const flush = () => {
    if (!text) return;
    runs.push(
      tone ? (
        <Text key={runs.length} color={tone}>
          {text}
        </Text>
      ) : (
        text
      ),
    );
  };
  add(color('ui.mark'), isMarked ? '● ' : '  ');
  const last = columns.length - 1;
  for (let i = 0; i <= last; i++) {
    const { column, width } = columns[i]!;
    const cell = fitWidth(column.cell(line, now), width, column.align);
    add(column.tone ? color(column.tone(line, now) ?? 'ui.muted') : undefined, i < last ? `${cell} ` : cell);
  }
  flush();
  return runs;
}

import { Text, useIsScreenReaderEnabled } from 'ink';
import { memo } from 'react';
import type { LineListItem } from '../../api/contract';
import { fitWidth } from '../../domain/format';
import type { LaidOut } from '../../present/lines-columns';
import { lineSentence } from '../../present/speech';
import { glyph } from '../glyphs';
import { color } from '../theme';
import { SpokenRow } from './SpokenRow';

export interface LineRowProps {
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
      {/* The cursor and the mark are characters too: without colour (NO_COLOR) nothing is lost. */}
      <Text>{isCursor ? glyph('cursor') : ' '}</Text>
      <Text color={color('ui.mark')}>{isMarked ? '● ' : '  '}</Text>
      {columns.map(({ column, width }, i) => (
        <Text key={column.id} color={column.tone ? color(column.tone(line, now) ?? 'ui.muted') : undefined}>
          {fitWidth(column.cell(line, now), width, column.align)}
          {i < columns.length - 1 ? ' ' : ''}
        </Text>
      ))}
    </Text>
  );
});

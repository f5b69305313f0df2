import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { keyNamed, said } from '../../commands/keymap';
import { centredWindow } from '../../domain/scroll';
import { LINE_COLUMNS, layoutColumns } from '../../present/lines-columns';
import { rowSentence, spokenPageSize } from '../../present/speech';
import { rowText } from '../../present/tables';
import type { AppState } from '../../store/app-store';
import { TableRow } from '../components/SpokenRow';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';

const MARK_COLUMNS = LINE_COLUMNS.filter((c) =>
  ['username', 'label', 'status', 'type', 'connections', 'expiry'].includes(c.id),
);

/** The changes of every marked line, each named with its key only while it works (not in read-only
 *  mode, not under the palette). */
const acts = (s: AppState): (string | null)[] => [
  said(keyNamed(s, 'line.extend'), 'extend'),
  said(keyNamed(s, 'line.upgrade'), 'connections'),
  said(keyNamed(s, 'line.unsuspend'), 'unsuspend'),
  said(keyNamed(s, 'line.delete'), 'delete'),
];

/** Every marked line, wherever it was marked; Space unmarks; e/u/s/d act on all of them. */
export function MarksScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const marked = useApp((s) => s.marked);
  const cursor = useApp((s) => s.marksCursor);
  const offered = useApp(useShallow(acts)).filter(Boolean).join(' · ');
  // `A` marks 100,000 lines: the list and the widths its content asks for are worked out when the
  // marks change, not on every cursor move.
  const list = useMemo(() => [...marked.values()], [marked]);
  // Read aloud, a row is a sentence that wraps: as many as fit, so the selected one is on screen.
  const isSpoken = useIsScreenReaderEnabled();
  const rows = Math.max(1, isSpoken ? spokenPageSize(height - 4, width) : height - 3);
  const { start, end } = centredWindow(list.length, rows, cursor);
  const now = Date.now();
  // The browser's own columns, those that say what a change will meet.
  const laid = useMemo(
    () => layoutColumns(MARK_COLUMNS, width - 2, 1, { items: list.map((m) => m.line), now: Date.now() }),
    [list, width],
  );
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold>{` Marked lines: ${list.length}${offered ? ` — ${offered}, all of them` : ''}`}</Text>
      {list.length === 0 && (
        <Text color={color('ui.muted')}>{' Nothing marked: mark lines in the browser.'}</Text>
      )}
      {list.length > 0 && (
        <Text bold wrap="truncate" aria-hidden>
          {`  ${rowText(laid, null)}`}
        </Text>
      )}
      {list.slice(start, end).map((m, i) => (
        <TableRow
          key={m.id}
          inverse={start + i === cursor}
          wrap="truncate"
          isSelected={start + i === cursor}
          say={() => rowSentence(MARK_COLUMNS, m.line, now)}
        >
          {`${start + i === cursor ? glyph('cursor') : ' '} ${rowText(laid, m.line, now)}`}
        </TableRow>
      ))}
    </Box>
  );
}

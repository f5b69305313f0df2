import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { said } from '../../commands/keymap';
import { fitWidth } from '../../domain/format';
import { centredWindow } from '../../domain/scroll';
import { viewColumns } from '../../present/saved-views';
import { pickerColumns, selectShownColumns } from '../../store/views-slice';
import { TableRow } from '../components/SpokenRow';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { useKeysNamed } from '../use-keys-named';

/**
 * The lines browser's columns (`L`): the shown ones in their order, then the hidden ones. Space
 * shows or hides, the move keys reorder; the browser follows at once and Esc returns to it. Shown
 * and hidden are said in words too, so no colour is needed to tell them apart.
 */
export function ColumnsPicker({ width, height }: { readonly width: number; readonly height: number }) {
  const shown = useApp(useShallow(selectShownColumns));
  const cursor = useApp((s) => s.columnsCursor);
  const viewName = useApp((s) => s.viewName);
  const all = pickerColumns(shown);
  const headers = new Map(viewColumns(all, new Map()).map((c) => [c.id, c.header]));
  const toggle = said(useKeysNamed(['columns.toggle'] as const)['columns.toggle'], 'shows or hides');
  const title = ` Columns of the lines browser${viewName ? ` (view ${viewName})` : ''}${toggle ? `: ${toggle}` : ''}`;
  const rows = Math.max(1, height - 3);
  const at = Math.max(0, all.indexOf(cursor));
  const view = centredWindow(all.length, rows, at);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('ui.accent')} wrap="truncate">
        {fitWidth(title, width)}
      </Text>
      {all.slice(view.start, view.end).map((id, i) => {
        const n = shown.indexOf(id);
        const isCursor = view.start + i === at;
        const text = `${isCursor ? glyph('cursor') : ' '} ${n >= 0 ? glyph('mark') : glyph('unmarked')} ${n >= 0 ? String(n + 1).padStart(2) : '  '} ${(headers.get(id) ?? id).padEnd(12)} ${n >= 0 ? 'shown' : 'hidden'}`;
        // Heard: the column's place and state in words, the cursor's row said selected (the
        // drawn row tells them by a glyph and an inverse bar, which a screen reader does not say).
        const header = headers.get(id) ?? id;
        return (
          <TableRow
            key={id}
            say={() => (n >= 0 ? `${header}, shown, column ${n + 1}` : `${header}, hidden`)}
            isSelected={isCursor}
            inverse={isCursor}
            color={n >= 0 ? undefined : color('ui.muted')}
            wrap="truncate"
          >
            {fitWidth(text, width)}
          </TableRow>
        );
      })}
      {view.position && <Text color={color('ui.muted')}>{` ${view.position}`}</Text>}
      <Text color={color('ui.muted')} wrap="truncate">
        {fitWidth(` Shown: ${shown.map((id) => headers.get(id) ?? id).join(' ')}`, width)}
      </Text>
    </Box>
  );
}

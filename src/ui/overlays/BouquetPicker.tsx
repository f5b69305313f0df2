import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { centredWindow } from '../../domain/scroll';
import { menuItem, rowSentence } from '../../present/speech';
import { layoutColumns, PICKER_COLUMNS, type PickerRow, rowText } from '../../present/tables';
import { pickerItems } from '../../store/form-slice';
import { loaded } from '../../store/types';
import { LoadState } from '../components/LoadState';
import { TableRow } from '../components/SpokenRow';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';

const NONE: readonly number[] = [];

/** Channels and movies in tabs, type to filter, Space toggles; the count chosen always shown. */
export function BouquetPicker({ width, height }: { readonly width: number; readonly height: number }) {
  const picker = useApp((s) => s.picker);
  const chosen = useApp((s) => s.form?.values.bouquets ?? NONE);
  const bouquets = useApp((s) => s.bouquets);
  const items = useApp(useShallow((s) => pickerItems(s)));
  if (!picker) return null;
  const data = loaded(bouquets);
  const count = (kind: 'channels' | 'movies') =>
    data?.[kind].filter((b) => chosen.includes(b.id)).length ?? 0;
  const rows: PickerRow[] = items.map((b) => ({ id: b.id, label: b.label, chosen: chosen.includes(b.id) }));
  // Two columns for the cursor mark; the window keeps the cursor in its middle where it can.
  const laid = layoutColumns(PICKER_COLUMNS, width - 2, 1, { items: rows, now: 0 });
  const size = Math.max(3, height - 4);
  const view = centredWindow(rows.length, size, picker.cursor);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {' '}
        <Text
          inverse={picker.tab === 'channels'}
        >{` Channels ${count('channels')}/${data?.channels.length ?? 0} `}</Text>{' '}
        <Text
          inverse={picker.tab === 'movies'}
        >{` Movies ${count('movies')}/${data?.movies.length ?? 0} `}</Text>
        {`   ${chosen.length} chosen`}
        {view.position ? `   ${view.position}` : ''}
      </Text>
      <Text color={color('ui.focus')} wrap="truncate">{` filter: ${picker.filter}▏`}</Text>
      <LoadState load={bouquets} what="bouquets" />
      {data && items.length === 0 && <Text color={color('ui.muted')}> Nothing matches the filter.</Text>}
      {data && items.length > 0 && (
        <Text color={color('ui.muted')} wrap="truncate" aria-hidden>{`  ${rowText(laid, null)}`}</Text>
      )}
      {rows.slice(view.start, view.end).map((b, i) => (
        <TableRow
          key={b.id}
          inverse={view.start + i === picker.cursor}
          wrap="truncate"
          isSelected={view.start + i === picker.cursor}
          say={() => menuItem(view.start + i, rows.length, rowSentence(PICKER_COLUMNS, b))}
        >
          {`${view.start + i === picker.cursor ? glyph('cursor') : ' '} ${rowText(laid, b)}`}
        </TableRow>
      ))}
    </Box>
  );
}

import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { fitWidth } from '../../domain/format';
import { pickerItems } from '../../store/form-slice';
import { loaded } from '../../store/types';
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
  const rows = Math.max(3, height - 3);
  const start = Math.max(0, Math.min(picker.cursor - Math.floor(rows / 2), items.length - rows));
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
      </Text>
      <Text color={color('ui.focus')} wrap="truncate">{` filter: ${picker.filter}▏`}</Text>
      {!data && <Text color={color('ui.muted')}> Loading bouquets…</Text>}
      {data && items.length === 0 && <Text color={color('ui.muted')}> Nothing matches the filter.</Text>}
      {items.slice(start, start + rows).map((b, i) => (
        <Text key={b.id} inverse={start + i === picker.cursor} wrap="truncate">
          {fitWidth(
            `${start + i === picker.cursor ? '›' : ' '}${chosen.includes(b.id) ? '[x]' : '[ ]'} ${b.label}`,
            width,
          )}
        </Text>
      ))}
    </Box>
  );
}

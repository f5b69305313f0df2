import { Box, Text } from 'ink';
import type { Bouquet } from '../../api/contract';
import { fitWidth } from '../../domain/format';
import { loaded } from '../../store/types';
import { LoadState } from '../components/LoadState';
import { useApp } from '../store-context';

/** Channels and movies side by side, each flowing into as many columns as the height needs. */
export function BouquetsScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const bouquets = useApp((s) => s.bouquets);
  const data = loaded(bouquets);
  const half = Math.floor(width / 2);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <LoadState load={bouquets} what="bouquets" />
      {data && (
        <Box>
          <Grid
            title={`Channels (${data.channels.length})`}
            items={data.channels}
            width={half}
            height={height - 1}
          />
          <Grid
            title={`Movies (${data.movies.length})`}
            items={data.movies}
            width={width - half}
            height={height - 1}
          />
        </Box>
      )}
    </Box>
  );
}

function Grid({
  title,
  items,
  width,
  height,
}: {
  title: string;
  items: readonly Bouquet[];
  width: number;
  height: number;
}) {
  const rows = Math.max(1, height - 1);
  const cols = Math.max(1, Math.ceil(items.length / rows));
  const colWidth = Math.max(8, Math.floor((width - 1) / cols));
  const lines = Array.from({ length: Math.min(rows, items.length) }, (_, r) =>
    Array.from({ length: cols }, (_, c) => items[c * rows + r])
      .map((b) => (b ? fitWidth(`${String(b.id).padStart(3)} ${b.label}`, colWidth) : ''))
      .join(''),
  );
  return (
    <Box flexDirection="column" width={width}>
      <Text bold> {title}</Text>
      {lines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed grid
        <Text key={i} wrap="truncate">
          {fitWidth(` ${l}`, width)}
        </Text>
      ))}
    </Box>
  );
}

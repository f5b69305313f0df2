import { Box, Text } from 'ink';
import { flashRowCount, flashRows, flashText } from '../../present/frame';
import type { Flash } from '../../store/types';
import { useApp } from '../store-context';
import { color, toneToken } from '../theme';

/** How many rows the flash takes now (the body gives up the second). */
export const selectFlashRows = (width: number) => (s: { readonly flash: Flash | null }) =>
  flashRowCount(s.flash, width);

/** Results and errors of the last action, spelled out (the tone is also a word for NO_COLOR). */
export function FlashLine({ width }: { readonly width: number }) {
  const text = useApp((s) => flashText(s.flash));
  const tone = useApp((s) => s.flash?.tone ?? 'info');
  const rows = flashRows(text, width);
  return (
    <Box flexDirection="column" height={rows.length}>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the flash's rows have no id
        <Text key={i} color={color(toneToken(tone))} wrap="truncate">
          {r}
        </Text>
      ))}
    </Box>
  );
}

import { Box, Text } from 'ink';
import { cellWidth, fitWidth } from '../../domain/format';
import type { Flash } from '../../store/types';
import { useApp } from '../store-context';
import { color, toneToken } from '../theme';

/**
 * The flash's rows at this width: one, or two when it is longer, wrapped between words so a path
 * it names is never split (a flash that names a file shows it whole); a second row still too long
 * is cut, with an ellipsis.
 */
export function flashRows(text: string, width: number): string[] {
  if (!text || width <= 0 || cellWidth(text) <= width) return [fitWidth(text, width)];
  const words = text.split(' ');
  let first = '';
  let i = 0;
  for (; i < words.length; i++) {
    const next = i === 0 ? words[0]! : `${first} ${words[i]}`;
    if (cellWidth(next) > width && i > 0) break;
    first = next;
  }
  if (i === words.length) return [fitWidth(first, width)];
  return [fitWidth(first, width), fitWidth(`  ${words.slice(i).join(' ')}`, width)];
}

const flashText = (flash: Flash | null) =>
  flash?.text
    ? ` ${flash.tone === 'error' ? 'error: ' : flash.tone === 'warning' ? 'warning: ' : ''}${flash.text}`
    : '';

/** How many rows the flash takes now (the body gives up the second). */
export const selectFlashRows = (width: number) => (s: { readonly flash: Flash | null }) =>
  flashRows(flashText(s.flash), width).length;

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

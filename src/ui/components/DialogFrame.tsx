import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { fitWidth } from '../../domain/format';
import { wrapWords } from '../../present/wrap';
import { borderStyle, glyph } from '../glyphs';
import { color } from '../theme';

/**
 * The frame of a dialog that asks before it spends or deletes (the action dialog, the bulk preview,
 * the resume dialog): a border in its tone, the title on the first row, the body, and the hint line
 * (the keys that work there, which the dialog writes) on the last row, red when it cannot be
 * confirmed. Title and hint are drawn as given, cut to the frame's width; `why` a dialog cannot be
 * confirmed at all (the terminal too small to show it) is said whole, on as many rows as it takes,
 * above the hint (the dialog shows nothing else then). The frame has no keys.
 */
export function DialogFrame({
  width,
  border,
  title,
  hint,
  refused = false,
  why = null,
  children,
}: {
  readonly width: number;
  readonly border: 'ui.accent' | 'ui.danger' | 'ui.badge';
  readonly title: string;
  readonly hint: string;
  /** The dialog cannot be confirmed now (its hint line says why). */
  readonly refused?: boolean;
  /** Why it cannot be confirmed at this terminal size, said whole; null: nothing. */
  readonly why?: string | null;
  readonly children?: ReactNode;
}) {
  return (
    <Box
      flexDirection="column"
      width={width}
      flexShrink={0}
      borderStyle={borderStyle()}
      borderColor={color(border)}
    >
      <Text bold wrap="truncate">
        {fitWidth(title, width - 2)}
      </Text>
      {children}
      {why &&
        wrapWords(`${glyph('fail')} ${why}`, width - 3).map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a sentence's rows are keyed by their place in it
          <Text key={i} color={color('tone.error')} wrap="truncate">
            {fitWidth(` ${row}`, width - 2)}
          </Text>
        ))}
      <Text color={color(refused || why ? 'tone.error' : 'ui.focus')} wrap="truncate">
        {fitWidth(hint, width - 2)}
      </Text>
    </Box>
  );
}

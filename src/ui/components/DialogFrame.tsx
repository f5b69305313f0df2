import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { fitWidth } from '../../domain/format';
import { borderStyle } from '../glyphs';
import { color } from '../theme';

/**
 * The frame of a dialog that asks before it spends or deletes (the action dialog, the bulk preview,
 * the resume dialog): a border in its tone, the title on the first row, the body, and the hint line
 * (the keys that work there, which the dialog writes) on the last row, red when it cannot be
 * confirmed. Title and hint are drawn as given, cut to the frame's width; the frame has no keys.
 */
export function DialogFrame({
  width,
  border,
  title,
  hint,
  refused = false,
  children,
}: {
  readonly width: number;
  readonly border: 'ui.accent' | 'ui.danger' | 'ui.badge';
  readonly title: string;
  readonly hint: string;
  /** The dialog cannot be confirmed now (its hint line says why). */
  readonly refused?: boolean;
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
      <Text color={color(refused ? 'tone.error' : 'ui.focus')} wrap="truncate">
        {fitWidth(hint, width - 2)}
      </Text>
    </Box>
  );
}

import { Box, Text, type TextProps, useIsScreenReaderEnabled } from 'ink';

/**
 * A row in the screen-reader mode: its sentence (present/speech.ts) as one line, and whether it is
 * the selected one in words ("(selected) …", Ink's `aria-state`), which is also where the terminal
 * cursor is parked (ui/screen-reader.ts). Drawn only in that mode; the table's own row otherwise.
 */
export function SpokenRow({
  text,
  isSelected = false,
}: {
  readonly text: string;
  readonly isSelected?: boolean;
}) {
  return (
    <Box aria-label={text} aria-state={isSelected ? { selected: true } : undefined}>
      <Text>{text}</Text>
    </Box>
  );
}

/**
 * A table's row: drawn as `Text`, or in the screen-reader mode said as `say()` (asked only then, so
 * the drawn tables pay nothing for it).
 */
export function TableRow({
  say,
  isSelected = false,
  ...text
}: TextProps & { readonly say: () => string; readonly isSelected?: boolean }) {
  const isSpoken = useIsScreenReaderEnabled();
  if (isSpoken) return <SpokenRow text={say()} isSelected={isSelected} />;
  return <Text {...text} />;
}

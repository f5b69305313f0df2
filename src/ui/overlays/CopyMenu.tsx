import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { keyLabel, visibleCommands } from '../../commands/keymap';
import { menuItem } from '../../present/speech';
import { color } from '../theme';

/**
 * What `y` can copy; the keys come from the command table. A few rows, so it fits under the line
 * detail on a 24-row terminal.
 */
export function CopyMenu({ width }: { readonly width: number }) {
  const isSpoken = useIsScreenReaderEnabled();
  const items = visibleCommands('copy').map((c) => ({
    key: keyLabel(c.keys[0]!),
    label: c.label.replace(/^Copy (the )?/, ''),
    id: c.id,
  }));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={color('ui.accent')}>
        {' '}
        Copy to the clipboard
      </Text>
      {/* A screen reader hears a numbered menu, one item a line: "1 of 4: u username". */}
      {isSpoken &&
        items.map((it, i) => <Text key={it.id}>{menuItem(i, items.length, `${it.key} ${it.label}`)}</Text>)}
      <Text wrap="wrap" aria-hidden>
        {' '}
        {items.map((it, i) => (
          <Text key={it.id}>
            {i > 0 ? ' · ' : ''}
            <Text color={color('ui.focus')}>{it.key}</Text> {it.label}
          </Text>
        ))}
      </Text>
    </Box>
  );
}

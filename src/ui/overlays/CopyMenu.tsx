import { Box, Text } from 'ink';
import { commandsIn, keyLabel } from '../../keys/keymap';
import { color } from '../theme';

/** What `y` can copy; the keys come from the keymap. */
export function CopyMenu({ width }: { readonly width: number }) {
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={color('ui.accent')}>
        {' '}
        Copy to the clipboard (OSC 52)
      </Text>
      {commandsIn('copy').map((c) => (
        <Text key={c.id}>
          <Text color={color('ui.focus')}>{`   ${keyLabel(c.keys[0]!)}  `}</Text>
          {c.label}
        </Text>
      ))}
    </Box>
  );
}

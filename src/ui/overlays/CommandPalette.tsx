import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import { fitWidth } from '../../domain/format';
import { PALETTE, paletteCandidates } from '../../store/palette';
import { fieldChange } from '../input';
import { useApp, useAppStore } from '../store-context';
import { color } from '../theme';

/** `:` — go to a screen, filter, sort, search, quit… with Tab completion and ↑/↓ history. */
export function CommandPalette({ width }: { readonly width: number }) {
  const store = useAppStore();
  const input = useApp((s) => s.paletteInput);
  const historyIndex = useApp((s) => s.paletteHistoryIndex);
  const candidates = paletteCandidates(input).slice(0, 6);
  const described = candidates.map((c) => {
    const cmd = PALETTE.find((p) => p.name === c);
    return cmd ? `${c} — ${cmd.help}` : c;
  });
  return (
    <Box flexDirection="column" width={width}>
      <Text color={color('ui.muted')} wrap="truncate">
        {fitWidth(` ${described.join('   ') || 'no completion'}`, width)}
      </Text>
      <Box>
        <Text color={color('ui.focus')}> :</Text>
        {/* Remounted when the value changes from outside (Tab, history) so the cursor goes to the end. */}
        <TextInput
          key={`${historyIndex}:${input.endsWith(' ') ? input : ''}`}
          value={input}
          onChange={fieldChange((v) => store.getState().setPaletteInput(v))}
        />
      </Box>
    </Box>
  );
}

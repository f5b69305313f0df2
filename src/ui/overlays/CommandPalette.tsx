import { Box, Text } from 'ink';
import { PALETTE, paletteCandidates } from '../../commands/palette';
import { fitWidth } from '../../domain/format';
import { menuItem } from '../../present/speech';
import { caretOf } from '../../store/text-target';
import { TextField } from '../components/TextField';
import { useApp } from '../store-context';
import { color } from '../theme';

/** `:` — go to a screen, filter, sort, search, quit… with Tab completion and ↑/↓ history. */
export function CommandPalette({ width }: { readonly width: number }) {
  const input = useApp((s) => s.paletteInput);
  const caret = useApp(caretOf);
  const profiles = useApp((s) => s.paletteValues.profiles);
  const templates = useApp((s) => s.templates);
  const views = useApp((s) => s.savedViews);
  const commands = useApp((s) => s.userCommands);
  const candidates = paletteCandidates(input, {
    profiles,
    templates: templates.map((t) => t.id),
    views: views.map((v) => v.name),
    commands: commands.map((u) => u.name),
  }).slice(0, 6);
  // Only a command's own name is described: an argument that happens to spell one (`:view delete`,
  // a view named `journal`) is a value, not that command.
  const isCommandWord = !/\s/.test(input.trimStart());
  const described = candidates.map((c) => {
    const cmd = isCommandWord ? PALETTE.find((p) => p.name === c) : undefined;
    return cmd ? `${c} — ${cmd.help}` : c;
  });
  return (
    <Box flexDirection="column" width={width}>
      <Text
        color={color('ui.muted')}
        wrap="truncate"
        aria-label={
          described.length
            ? `Completions: ${described.map((d, i) => menuItem(i, described.length, d)).join('; ')}`
            : 'No completion'
        }
      >
        {fitWidth(` ${described.join('   ') || 'no completion'}`, width)}
      </Text>
      <Box>
        <Text color={color('ui.focus')}> :</Text>
        <TextField value={input} caret={caret} />
      </Box>
    </Box>
  );
}

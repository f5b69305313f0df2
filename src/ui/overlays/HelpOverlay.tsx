import { Box, Text } from 'ink';
import { fitWidth } from '../../domain/format';
import { COMMANDS, keyLabel, type Scope } from '../../keys/keymap';
import { useApp } from '../store-context';
import { color } from '../theme';

/** Generated from the keymap, so it cannot drift from the real bindings. */
export function HelpOverlay({ width, height }: { readonly width: number; readonly height: number }) {
  const screen = useApp((s) => s.screens.at(-1)!.id);
  const scopes: Scope[] = [screen, 'global'];
  if (screen === 'lines') scopes.push('search');
  if (screen === 'detail') scopes.push('copy');
  const rows = scopes.flatMap((scope) =>
    COMMANDS.filter((c) => c.scope === scope).map((c) => ({
      keys: c.keys.map(keyLabel).join(' '),
      label: `${c.label}${c.danger ? '  (changes data)' : ''}`,
      scope,
    })),
  );
  // Two columns when the list is taller than the screen.
  const perColumn = Math.max(1, height - 2);
  const columns = Math.ceil(rows.length / perColumn);
  const colWidth = Math.floor(width / Math.max(1, columns));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('ui.accent')}>
        {' '}
        Keys — {screen} screen (Esc closes)
      </Text>
      <Box>
        {Array.from({ length: columns }, (_, ci) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: columns of a fixed layout
          <Box key={ci} flexDirection="column" width={colWidth}>
            {rows.slice(ci * perColumn, (ci + 1) * perColumn).map((r) => (
              <Text key={`${r.scope}:${r.keys}`} wrap="truncate">
                <Text color={color('ui.focus')}>{fitWidth(` ${r.keys}`, 14)}</Text>
                {fitWidth(r.label, Math.max(0, colWidth - 15))}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

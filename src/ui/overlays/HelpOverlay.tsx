import { Box, Text } from 'ink';
import { fitWidth } from '../../domain/format';
import { windowOf } from '../../domain/scroll';
import { helpScopes, hint, keyHintText, keyLabel, visibleCommands } from '../../keys/keymap';
import { SCOPE_TITLES } from '../../keys/keys-doc';
import { useApp } from '../store-context';
import { color } from '../theme';

type Row =
  | { readonly kind: 'title'; readonly text: string }
  | { readonly kind: 'key'; readonly keys: string; readonly label: string };

/**
 * Generated from the command table, so it cannot drift from the real bindings: a section per scope
 * that works on this screen (its own, the menus it opens, everywhere), each listing exactly the
 * commands dispatch would run there.
 */
export function HelpOverlay({ width, height }: { readonly width: number; readonly height: number }) {
  const screen = useApp((s) => s.screens.at(-1)!.id);
  const rows: Row[] = helpScopes(screen).flatMap((scope) => [
    { kind: 'title' as const, text: SCOPE_TITLES[scope] },
    ...visibleCommands(scope).map((c) => ({
      kind: 'key' as const,
      keys: c.keys.map(keyLabel).join(' '),
      label: `${c.label}${c.danger ? '  (changes data)' : ''}`,
    })),
  ]);
  // More columns when the list is taller than the screen (each at least 48 wide), then scrolling.
  const scroll = useApp((s) => s.scroll.help);
  const perColumn = Math.max(1, height - 2);
  const win = windowOf(rows.length, perColumn * Math.max(1, Math.floor(width / 48)), scroll);
  const visible = rows.slice(win.start, win.end);
  const columns = Math.max(1, Math.ceil(visible.length / perColumn));
  const colWidth = Math.floor(width / Math.max(1, columns));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('ui.accent')}>
        {' '}
        Keys — {screen} screen ({hint('help.close', 'closes')})
        {win.position
          ? ` · ${win.position}, ${keyHintText('help.up')}/${keyHintText('help.down')} ${keyHintText('help.pageUp')}/${keyHintText('help.pageDown')} scroll`
          : ''}
      </Text>
      <Box>
        {Array.from({ length: columns }, (_, ci) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: columns of a fixed layout
          <Box key={ci} flexDirection="column" width={colWidth}>
            {visible.slice(ci * perColumn, (ci + 1) * perColumn).map((r, i) =>
              r.kind === 'title' ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed list
                <Text key={i} bold wrap="truncate">
                  {fitWidth(` ${r.text}`, colWidth)}
                </Text>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed list
                <Text key={i} wrap="truncate">
                  <Text color={color('ui.focus')}>{fitWidth(`   ${r.keys}`, 16)}</Text>
                  {fitWidth(r.label, Math.max(0, colWidth - 17))}
                </Text>
              ),
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

import { Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { fitWidth } from '../../domain/format';
import { activeScopes } from '../../keys/dispatch';
import { keyLabel, visibleCommands } from '../../keys/keymap';
import { useApp } from '../store-context';
import { color } from '../theme';

/** The keys that work here now, from the keymap: the current scope's, then the global ones. */
export function Footer({ width }: { readonly width: number }) {
  const scopes = useApp(useShallow((s) => activeScopes(s)));
  const hints = scopes.flatMap((scope) =>
    visibleCommands(scope)
      .filter((c) => c.footer)
      .map((c) => `${keyLabel(c.keys[0]!)} ${shortLabel(c.label)}`),
  );
  return (
    <Text color={color('ui.muted')} wrap="truncate">
      {fitWidth(` ${hints.join('  ')}`, width)}
    </Text>
  );
}

/** Footer space is scarce: the label up to its first colon or parenthesis. */
const shortLabel = (label: string) => label.split(/[:(…]/)[0]!.trim().toLowerCase();

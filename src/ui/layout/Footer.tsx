import { Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { fitWidth } from '../../domain/format';
import { activeScopes } from '../../keys/dispatch';
import { keyLabel, visibleCommands } from '../../keys/keymap';
import type { AppState } from '../../store/app-store';
import { useApp } from '../store-context';
import { color } from '../theme';

/**
 * The keys that work here now: the current scope's, then the global ones, from the command table,
 * leaving out what is disabled at this moment (read-only mode, a job already running, the last page).
 */
export const footerHints = (s: AppState): string[] =>
  activeScopes(s).flatMap((scope) =>
    visibleCommands(scope)
      .filter((c) => c.footer && !c.disabled?.(s))
      .map((c) => `${keyLabel(c.keys[0]!)} ${shortLabel(c.label)}`),
  );

/** As many whole hints as fit; never a hint cut in the middle. */
export function fitHints(hints: readonly string[], width: number): string {
  let out = '';
  for (const h of hints) {
    const next = out ? `${out}  ${h}` : ` ${h}`;
    if (next.length > width) break;
    out = next;
  }
  return out;
}

export function Footer({ width }: { readonly width: number }) {
  const hints = useApp(useShallow(footerHints));
  return (
    <Text color={color('ui.muted')} wrap="truncate">
      {fitWidth(fitHints(hints, width), width)}
    </Text>
  );
}

/** Footer space is scarce: the label up to its first colon or parenthesis. */
const shortLabel = (label: string) => label.split(/[:(…]/)[0]!.trim().toLowerCase();

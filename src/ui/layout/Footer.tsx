import { Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { keyLabel, visibleCommands } from '../../commands/keymap';
import { activeScopes, keyThatWorks } from '../../commands/text-takes';
import { fitWidth } from '../../domain/format';
import type { AppState } from '../../store/app-store';
import { useApp } from '../store-context';
import { color } from '../theme';

interface FooterHint {
  readonly text: string;
  readonly priority: number;
}

/**
 * The keys that work here now: the current scope's, then the global ones, from the command table,
 * leaving out what is disabled at this moment (read-only mode, a job already running, the last page,
 * nothing marked) and a key the text typed here takes (commands/text-takes.ts `textTakes`: `x` typed into
 * a delete's count is no export there); a command is named by its first key that works, once.
 */
export function footerItems(s: AppState): FooterHint[] {
  const seen = new Set<string>();
  return activeScopes(s).flatMap((scope) =>
    visibleCommands(scope).flatMap((c) => {
      if (!c.footer || c.disabled?.(s) || seen.has(c.id)) return [];
      const key = keyThatWorks(s, c);
      if (key === undefined) return [];
      seen.add(c.id);
      return [
        {
          text: `${keyLabel(key)} ${shortLabel(c.label)}`,
          priority: c.footer === true ? 1 : Number(c.footer),
        },
      ];
    }),
  );
}

export const footerHints = (s: AppState): string[] => footerItems(s).map((h) => h.text);

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

/** The footer at `width`: while it does not fit, the lowest priority's last hint goes; order is kept. */
export function fitFooter(items: readonly FooterHint[], width: number): string {
  const kept = [...items];
  const text = () => (kept.length ? ` ${kept.map((h) => h.text).join('  ')}` : '');
  while (kept.length && text().length > width) {
    const low = Math.min(...kept.map((h) => h.priority));
    kept.splice(
      kept.findLastIndex((h) => h.priority === low),
      1,
    );
  }
  return text();
}

export function Footer({ width }: { readonly width: number }) {
  // Primitives for useShallow (new objects each call would re-render forever): "priority|text".
  const encoded = useApp(useShallow((s: AppState) => footerItems(s).map((h) => `${h.priority}|${h.text}`)));
  const items = encoded.map((e) => ({
    priority: Number(e.split('|', 1)[0]),
    text: e.slice(e.indexOf('|') + 1),
  }));
  return (
    <Text color={color('ui.muted')} wrap="truncate">
      {fitWidth(fitFooter(items, width), width)}
    </Text>
  );
}

/**
 * Footer space is scarce: the label up to its first colon, parenthesis or ellipsis. The ellipsis is
 * written as an escape: esbuild leaves a regex literal's characters as they are, and one character
 * above U+00FF makes V8 hold the whole chunk's source (≈ 0.75 MB) at two bytes a character.
 */
const shortLabel = (label: string) =>
  label
    .split(/[:(\u2026]/)[0]!
    .trim()
    .toLowerCase();

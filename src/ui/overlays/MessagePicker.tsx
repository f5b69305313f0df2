import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { said } from '../../commands/keymap';
import { fitWidth } from '../../domain/format';
import { centredWindow } from '../../domain/scroll';
import { menuItem } from '../../present/speech';
import { placeholdersText } from '../../store/messages-slice';
import { TableRow } from '../components/SpokenRow';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { useKeysNamed } from '../use-keys-named';
import { usePageRows } from '../use-page-rows';

/**
 * The templates, and the message the one under the cursor makes for the line (an export previews
 * its first line). The message is already sanitized; here it is only cut to the frame: the list
 * keeps at most a third of the rows, the preview the rest, its overflow counted.
 */
export function MessagePicker({ width, height }: { readonly width: number; readonly height: number }) {
  const m = useApp((s) => s.messages);
  const templates = useApp((s) => s.templates);
  const line = m ? (m.mode === 'copy' ? m.line : m.lines[0]) : undefined;
  const template = m ? templates[m.cursor] : undefined;
  // Primitives only: a fresh array each render would make zustand re-render forever.
  const [message, lacking] = useApp(
    useShallow((s) => {
      const p = template && line ? s.messageFor(template, line) : null;
      return [p?.text ?? '', p?.missing.join(' ') ?? ''];
    }),
  );
  // PgDn/PgUp move by the templates in view (commands/areas/messages.ts), offered only when some are
  // not: what fits depends on the terminal alone.
  const listRows = Math.max(1, Math.min(templates.length, Math.floor((height - 3) / 3)));
  usePageRows('message', listRows);
  const k = useKeysNamed(['message.pick'] as const);
  if (!m || !line) return null;
  const pick = (does: string) => said(k['message.pick'], does);
  const title =
    m.mode === 'copy'
      ? ` Customer message for ${line.username}${pick('copies it') ? `: ${pick('copies it')}` : ''}`
      : ` Messages for ${m.what}, one each${pick('writes them (CSV and text)') ? `: ${pick('writes them (CSV and text)')}` : ''}`;
  const view = centredWindow(templates.length, listRows, m.cursor);
  const missing = lacking !== '';
  const previewRows = Math.max(1, height - 2 - listRows - (view.position ? 1 : 0) - (missing ? 1 : 0));
  const text = message.replaceAll('\t', '  ').split('\n');
  const shown = text.length > previewRows ? text.slice(0, previewRows - 1) : text;
  const previewTitle =
    m.mode === 'copy' ? ' Preview:' : ` Preview (${line.username}, 1 of ${m.lines.length}):`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('ui.accent')} wrap="truncate">
        {fitWidth(title, width)}
      </Text>
      {templates.slice(view.start, view.end).map((t, i) => (
        <TableRow
          key={t.id}
          inverse={view.start + i === m.cursor}
          wrap="truncate"
          isSelected={view.start + i === m.cursor}
          say={() => menuItem(view.start + i, templates.length, t.name)}
        >
          {fitWidth(`${view.start + i === m.cursor ? glyph('cursor') : ' '} ${t.name}`, width)}
        </TableRow>
      ))}
      {view.position && <Text color={color('ui.muted')}>{` ${view.position}`}</Text>}
      <Text color={color('ui.muted')}>{previewTitle}</Text>
      {shown.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the preview's rows are positions, not items.
        <Text key={i} wrap="truncate">
          {fitWidth(`   ${l}`, width)}
        </Text>
      ))}
      {shown.length < text.length && (
        <Text color={color('ui.muted')}>{`   … ${text.length - shown.length} more lines`}</Text>
      )}
      {missing && (
        <Text color={color('tone.error')} wrap="truncate">
          {fitWidth(` No value for ${placeholdersText(lacking.split(' '))} on this line`, width)}
        </Text>
      )}
    </Box>
  );
}

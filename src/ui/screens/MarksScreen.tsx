import { Box, Text } from 'ink';
import { expiryText, fitWidth, statusOf } from '../../domain/format';
import { keyHintText } from '../../keys/keymap';
import { useApp } from '../store-context';
import { color } from '../theme';

// The keys named here are the table's (the marks view is in these commands' scopes).
const ACTS = [
  `${keyHintText('line.extend')} extend`,
  `${keyHintText('line.upgrade')} connections`,
  `${keyHintText('line.unsuspend')} unsuspend`,
  `${keyHintText('line.delete')} delete`,
].join(' · ');

/** Every marked line, wherever it was marked; Space unmarks; e/u/s/d act on all of them. */
export function MarksScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const marked = useApp((s) => s.marked);
  const cursor = useApp((s) => s.marksCursor);
  const list = [...marked.values()];
  const rows = Math.max(1, height - 2);
  const start = Math.max(0, Math.min(cursor - Math.floor(rows / 2), list.length - rows));
  const now = Date.now();
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold>{` Marked lines: ${list.length} — ${ACTS}, all of them`}</Text>
      {list.length === 0 && (
        <Text color={color('ui.muted')}> Nothing marked. Space marks a line in the browser.</Text>
      )}
      {list.slice(start, start + rows).map((m, i) => (
        <Text key={m.id} inverse={start + i === cursor} wrap="truncate">
          {fitWidth(
            `${start + i === cursor ? '›' : ' '} ${fitWidth(m.username, 30)} ${fitWidth(statusOf(m.line, now), 10)} ${fitWidth(`${m.line.connections} conn`, 7)} ${expiryText(m.line.exp_date, now)}`,
            width,
          )}
        </Text>
      ))}
    </Box>
  );
}

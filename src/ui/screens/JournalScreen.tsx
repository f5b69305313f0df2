import { Box, Text } from 'ink';
import { countText, credits, fitWidth } from '../../domain/format';
import { windowOf } from '../../domain/scroll';
import { keyHintText } from '../../keys/keymap';
import { journalTotals } from '../../store/journal';
import { useApp } from '../store-context';
import { JOURNAL_COLUMNS, layoutColumns, rowText } from '../tables';
import { color } from '../theme';

/** Every change made from this machine, newest first, with totals per day and operation. */
export function JournalScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const entries = useApp((s) => s.journalEntries);
  const totals = journalTotals(entries).slice(0, 6);
  const scroll = useApp((s) => s.scroll.journal);
  const newestFirst = [...entries].reverse();
  const win = windowOf(newestFirst.length, Math.max(1, height - totals.length - 5), scroll);
  const recent = newestFirst.slice(win.start, win.end);
  const laid = layoutColumns(JOURNAL_COLUMNS, width - 2, 1, { items: recent, now: 0 });
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {` Journal — ${countText(entries.length)} ${entries.length === 1 ? 'entry' : 'entries'}${win.position ? ` · ${win.position}` : ''} (${keyHintText('journal.export')} exports CSV)`}
      </Text>
      {totals.map((t) => (
        <Text key={`${t.day}${t.operation}`} color={color('ui.muted')} wrap="truncate">
          {fitWidth(`  ${t.day}  ${t.operation}: ${t.count} × · ${credits(t.credits)}`, width)}
        </Text>
      ))}
      <Text bold wrap="truncate">
        {`  ${rowText(laid, null)}`}
      </Text>
      {entries.length === 0 && <Text color={color('ui.muted')}> No changes yet.</Text>}
      {recent.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: journal rows have no id
        <Text key={i} wrap="truncate" color={e.outcome === 'applied' ? undefined : color('tone.error')}>
          {`  ${rowText(laid, e)}`}
        </Text>
      ))}
    </Box>
  );
}

import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { keyNamed, said, wrapped } from '../../commands/keymap';
import { countText, fitWidth } from '../../domain/format';
import { windowOf } from '../../domain/scroll';
import { rowSentence, wrappedRows } from '../../present/speech';
import { journalColumns, layoutColumns, rowText } from '../../present/tables';
import { journalTotals, sumTotals, totalsText } from '../../services/changes/journal';
import { leftOutText } from '../../services/changes/journal-filter';
import { TableRow } from '../components/SpokenRow';
import { useApp } from '../store-context';
import { color } from '../theme';
import { usePageRows } from '../use-page-rows';

/**
 * The changes made from this machine on this account (or every account), newest first, in a
 * period of local days, with totals per day and operation: only what was applied counts as done.
 */
export function JournalScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const entries = useApp((s) => s.journalEntries);
  const all = useApp((s) => s.journalAllAccounts);
  const period = useApp((s) => s.journalPeriod);
  const others = useApp((s) => leftOutText(s.journalLeftOut.otherAccounts, s.journalLeftOut.noAccount));
  const label = useApp((s) => s.target.label);
  const byDay = journalTotals(entries);
  const totals = byDay.slice(0, 6);
  const scroll = useApp((s) => s.scroll.journal);
  const newestFirst = [...entries].reverse();
  // One account: its name is in the title, not on every row.
  const columns = journalColumns(all);
  // Read aloud, an entry is a sentence of two or three rows: the window holds as many as fit, or
  // the older ones are cut below the screen with nothing saying they are there, and never reached.
  const isSpoken = useIsScreenReaderEnabled();
  // The key that shows every account, named only while it works (not under the palette).
  const allKey = useApp((s) => keyNamed(s, 'journal.allAccounts'));
  const room = Math.max(1, height - totals.length - 6);
  const rowsEach = isSpoken
    ? Math.max(
        1,
        ...newestFirst.slice(scroll, scroll + room).map((e) => wrappedRows(rowSentence(columns, e), width)),
      )
    : 1;
  const win = windowOf(newestFirst.length, Math.max(1, Math.floor(room / rowsEach)), scroll);
  const recent = newestFirst.slice(win.start, win.end);
  // How many entries are in view: a scroll stops where the last ones fill them (ui-slice `scrollBy`),
  // and the scroll keys are offered only when some are not (commands/areas/app.ts).
  usePageRows('journal', recent.length);
  const laid = layoutColumns(columns, width - 2, 1, { items: recent, now: 0 });
  const scope = all ? 'every account' : label;
  const hidden = !all && others ? ` · left out: ${others}${wrapped(said(allKey, 'shows all'))}` : '';
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {fitWidth(
          ` Journal — ${scope} · ${period} (local days) — ${countText(entries.length)} ${entries.length === 1 ? 'entry' : 'entries'}${win.position ? ` · ${win.position}` : ''}${hidden}`,
          width,
        )}
      </Text>
      <Text color={color('ui.muted')} wrap="truncate">
        {fitWidth(`  Total: ${totalsText(sumTotals(byDay))}`, width)}
      </Text>
      {totals.map((t) => (
        <Text key={`${t.day}${t.operation}`} color={color('ui.muted')} wrap="truncate">
          {fitWidth(`  ${t.day}  ${t.operation}: ${totalsText(t)}`, width)}
        </Text>
      ))}
      <Text bold wrap="truncate" aria-hidden>
        {`  ${rowText(laid, null)}`}
      </Text>
      {entries.length === 0 && (
        <Text color={color('ui.muted')}>
          {period === 'all'
            ? ' No changes yet.'
            : ` No changes ${period === 'last 7 days' ? 'in the last 7 days' : period}.`}
        </Text>
      )}
      {recent.map((e, i) => (
        <TableRow
          // biome-ignore lint/suspicious/noArrayIndexKey: journal rows have no id
          key={i}
          wrap="truncate"
          color={e.outcome === 'applied' ? undefined : color('tone.error')}
          say={() => rowSentence(columns, e)}
        >
          {`  ${rowText(laid, e)}`}
        </TableRow>
      ))}
    </Box>
  );
}

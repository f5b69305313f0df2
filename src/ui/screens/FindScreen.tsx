import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { keyNamed, said } from '../../commands/keymap';
import { centredWindow } from '../../domain/scroll';
import { FIND_COLUMNS, groupHeading } from '../../present/find-columns';
import { rowSentence, spokenPageSize } from '../../present/speech';
import { layoutColumns, rowText } from '../../present/tables';
import { selectFindItems, selectFindRows, selectFoundLine } from '../../store/find-slice';
import { TableRow } from '../components/SpokenRow';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { usePageRows } from '../use-page-rows';

/** `:find TEXT`: the matches of every profile, grouped by profile, each group as it answers. */
export function FindScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const text = useApp((s) => s.findText);
  // Its keys, named only while they work (not under the palette).
  const hints = useApp(
    useShallow((s) => [
      said(keyNamed(s, 'find.open'), 'opens a line (in another profile: switches to it, the line open)'),
      said(keyNamed(s, 'app.refresh'), 'searches again'),
    ]),
  );
  const groups = useApp((s) => s.findGroups);
  const problem = useApp((s) => s.findProblem);
  const rows = useApp(selectFindRows);
  const current = useApp(selectFoundLine);
  const isSpoken = useIsScreenReaderEnabled();
  const now = Date.now();
  const laid = useMemo(
    () => layoutColumns(FIND_COLUMNS, width - 3, 1, { items: rows, now: Date.now() }),
    [width, rows],
  );
  // The layout the page keys move over (store/find-slice.ts `findPageDelta`).
  const { items } = useApp(selectFindItems);
  const cursor = current ? rows.indexOf(current) : -1;
  const at = items.findIndex((it) => it.kind === 'row' && it.index === cursor);
  // Read aloud, a row is a sentence that wraps: as many as fit, so the selected one is on screen.
  const size = Math.max(
    1,
    isSpoken ? spokenPageSize(height - 4 - (problem ? 1 : 0), width) : height - 3 - (problem ? 1 : 0),
  );
  const view = centredWindow(items.length, size, at);
  // PgDn/PgUp move by what is on screen (commands/areas/find.ts), offered only when some is not.
  usePageRows('find', size);
  const searching = groups.filter((g) => g.load.status === 'loading').length;
  const title = ` Find "${text}" in ${groups.length} ${groups.length === 1 ? 'service' : 'services'}${searching ? ` (${searching} searching…)` : ''}${view.position ? `   ${view.position}` : ''}`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {title}
      </Text>
      {problem && (
        <Text color={color('tone.error')} wrap="truncate">
          {` ${problem}`}
        </Text>
      )}
      <Text color={color('ui.muted')} wrap="truncate">
        {` ${hints.filter(Boolean).join(' · ')}`}
      </Text>
      {rows.length > 0 && (
        <Text color={color('ui.muted')} wrap="truncate" aria-hidden>{`   ${rowText(laid, null)}`}</Text>
      )}
      {items.slice(view.start, view.end).map((it, i) => {
        if (it.kind === 'heading') {
          const tone =
            it.group.load.status === 'error'
              ? 'tone.error'
              : it.group.load.status === 'ready'
                ? 'ui.accent'
                : 'ui.muted';
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the slot on screen is the row's identity
            <Text key={i} bold color={color(tone)} wrap="truncate">
              {` ── ${groupHeading(it.group)}`}
            </Text>
          );
        }
        if (it.kind === 'note')
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the slot on screen is the row's identity
            <Text key={i} color={color('ui.badge')} wrap="truncate">
              {`    ${it.text}`}
            </Text>
          );
        const isCursor = it.index === cursor;
        return (
          <TableRow
            // biome-ignore lint/suspicious/noArrayIndexKey: the slot on screen is the row's identity
            key={i}
            inverse={isCursor}
            wrap="truncate"
            isSelected={isCursor}
            say={() => rowSentence(FIND_COLUMNS, rows[it.index]!, now)}
          >
            {`${isCursor ? glyph('cursor') : ' '}  ${rowText(laid, rows[it.index]!, now)}`}
          </TableRow>
        );
      })}
    </Box>
  );
}

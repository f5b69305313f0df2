import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { type LineListItem, SEARCH_MAX } from '../../api/contract';
import { keyNamed, said, wrapped } from '../../commands/keymap';
import { creditsText, fitWidth, positionText, unreadableText } from '../../domain/format';
import { loaded } from '../../domain/load';
import { LINES_CHROME_ROWS } from '../../present/frame';
import { headerText, layoutColumns } from '../../present/lines-columns';
import { viewColumns } from '../../present/saved-views';
import { progressStep } from '../../present/speech';
import { notesUnsettledText } from '../../services/find-lines';
import type { AppState } from '../../store/app-store';
import { sortedBy } from '../../store/lines-slice';
import { LOCAL_MAX, selectLocalLines, selectLocalRows } from '../../store/notes-slice';
import { caretOf } from '../../store/text-target';
import { selectViewState } from '../../store/views-slice';
import { LineRow } from '../components/LineRow';
import { LoadState, loadText, retryKey } from '../components/LoadState';
import { TextField } from '../components/TextField';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';

export function LinesScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const load = useApp((s) => s.lines);
  const page = loaded(load);
  const cursor = useApp((s) => s.cursor);
  const marked = useApp((s) => s.marked);
  const query = useApp((s) => s.query);
  const chosen = useApp((s) => s.columns);
  // The notes, when the Note column is shown: in the chosen set, or (the default set) as `N` says.
  const notes = useApp((s) => ((s.columns ? s.columns.includes('note') : s.noteColumn) ? s.lineNotes : null));
  const local = useApp(useShallow(selectLocalLines));
  const localRows = useApp(selectLocalRows);
  // The keys an empty result names, only those that work now (none under the palette; in the open
  // search field, its own key that clears it).
  const emptyKeys = useApp(useShallow(emptyResultKeys));
  // Stable props keep the memoised rows still: only the rows whose cursor or mark changed re-render.
  // Relative times ("in 3 days") are computed against a clock that moves once a minute, not per key.
  const now = useMinuteClock(page);
  // Widths follow the page's content (laid out again when the page or the width changes).
  const columns = useMemo(
    () =>
      layoutColumns(
        viewColumns(chosen, notes),
        width - 3,
        1,
        page ? { items: [...page.lines, ...local], now } : undefined,
      ),
    [width, page, now, notes, local, chosen],
  );
  // A failure shows above the page it kept (the view draws nothing while data is there), in the
  // two rows it may wrap to.
  const failed = load.status === 'error';
  const bodyRows = Math.max(0, height - LINES_CHROME_ROWS - (failed && page ? 2 : 0) - localRows);
  const state = <LoadState key="load" load={load} what="lines" />;

  const n = page?.lines.length ?? 0;
  const localGroup = localRows > 0 && (
    <LocalGroup key="local" width={width} columns={columns} cursor={cursor - n} now={now} lines={local} />
  );
  let body: React.ReactNode;
  if (!page) body = state;
  else if (page.lines.length === 0 && page.unreadable.length === 0 && local.length) {
    body = failed ? [state, localGroup] : localGroup;
  } else if (page.lines.length === 0 && page.unreadable.length === 0) {
    // A heading under it saying a noted line was not looked up (or does not read): only the server's
    // search is proven empty, not the notes.
    const proven = localRows ? "No line the server's search finds matches" : 'No lines match';
    body = (
      <Text key="empty" color={color('ui.muted')}>
        {' '}
        {`${proven}. ${emptyResultText(emptyKeys)}`}
      </Text>
    );
    body = failed ? [state, body, localGroup] : [body, localGroup];
  } else {
    // Rows are keyed by their place on screen, not by line: a page turn updates the same rows in
    // place instead of unmounting a page of components and mounting the next (garbage that
    // outlived young-generation GCs and inflated the heap over many page turns).
    const rows: React.ReactNode[] = page.lines.slice(0, bodyRows).map((line, i) => (
      <LineRow
        // biome-ignore lint/suspicious/noArrayIndexKey: the slot on screen is the row's identity
        key={i}
        line={line}
        columns={columns}
        isCursor={i === cursor}
        isMarked={marked.has(line.id)}
        now={now}
      />
    ));
    // One bad item never hides the good ones: it is named after them, in the warning tone.
    const room = Math.max(0, bodyRows - page.lines.length);
    for (const u of page.unreadable.slice(0, room)) {
      rows.push(
        <Text key={`unreadable-${u.index}`} color={color('ui.badge')} wrap="truncate">
          {fitWidth(`   ${unreadableText(u)}`, width)}
        </Text>,
      );
    }
    body = failed ? [state, ...rows, localGroup] : [...rows, localGroup];
  }

  return (
    <Box flexDirection="column" width={width} height={height}>
      <StatusLine width={width} />
      <Text bold wrap="truncate" aria-hidden>
        {'   '}
        {columns
          .map(({ column, width: w }) =>
            fitWidth(headerText(column, { ...query, orderBy: sortedBy(query) }), w, column.align),
          )
          .join(' ')}
      </Text>
      {body}
    </Box>
  );
}

/** Position, search, filters and sort, always visible; the search field when it is open. */
/** The keys "no lines match" names: clearing the search, opening it, the two filters (null: not now). */
const emptyResultKeys = (s: AppState): (string | null)[] => [
  keyNamed(s, 'search.clear'),
  keyNamed(s, 'lines.search'),
  keyNamed(s, 'lines.filterStatus'),
  keyNamed(s, 'lines.filterType'),
];

/** "Clear the search (/ opens it) or change the filters (s, t).": each key only while it works. */
function emptyResultText([clear, open, status, type]: (string | null)[]): string {
  const search = clear ? ` (${clear})` : open ? ` (${open} opens it)` : '';
  const filters = [status, type].filter(Boolean).join(', ');
  return `Clear the search${search} or change the filters${filters ? ` (${filters})` : ''}.`;
}

function StatusLine({ width }: { readonly width: number }) {
  const searchOpen = useApp((s) => s.searchOpen);
  const draft = useApp((s) => s.searchDraft);
  const caret = useApp(caretOf);
  const q = useApp((s) => s.query);
  const offset = useApp((s) => s.offset);
  const count = useApp((s) => loaded(s.lines)?.lines.length ?? 0);
  const total = useApp((s) => loaded(s.lines)?.totalHits ?? 0);
  const loading = useApp((s) => s.lines.status === 'loading');
  const marking = useApp((s) => s.markingAll);
  // The key that stops the marking, named only while it works.
  const stopKey = useApp((s) => keyNamed(s, 'lines.markAll'));
  const retry = useApp(retryKey);
  const stops = wrapped(said(stopKey, 'again stops'));
  const isSpoken = useIsScreenReaderEnabled();
  const notes = useApp((s) => (s.localMatches?.search === q.search ? s.localMatches : null));
  const view = useApp(selectViewState);
  if (searchOpen) {
    return (
      <Box width={width}>
        <Box flexShrink={0}>
          <Text color={color('ui.focus')}>
            {[...draft].length >= SEARCH_MAX ? ` search (at most ${SEARCH_MAX} characters): ` : ' search: '}
          </Text>
        </Box>
        <TextField value={draft} caret={caret} placeholder="username or line id" />
      </Box>
    );
  }
  const parts = [
    positionText(offset, count, total),
    view,
    q.search ? `search "${q.search}"` : null,
    `status ${q.status}`,
    `type ${q.type}`,
    `sort ${sortedBy(q) === 'exp_date' ? 'expiry' : sortedBy(q)} ${glyph(q.orderType === 'asc' ? 'up' : 'down')}`,
    loading ? 'loading…' : null,
    notes
      ? loadText(
          notes.load,
          {
            what: 'lines found in local notes',
            doing: 'looking up lines found in local notes',
          },
          retry,
        )
      : null,
    marking
      ? isSpoken
        ? // In steps, not at every page of marks: a screen reader hears each change.
          `marking, ${progressStep(marking.lines, marking.total)}% of ${creditsText(marking.total)}${stops}`
        : `marking ${creditsText(marking.lines)} of ${creditsText(marking.total)}…${stops}`
      : null,
  ].filter(Boolean);
  return (
    <Text color={color('ui.muted')} wrap="truncate">
      {fitWidth(` ${parts.join(' · ')}`, width)}
    </Text>
  );
}

/** The time rounded to the minute, re-read when the page changes. */
function useMinuteClock(page: unknown): number {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page is the moment to look again
  return useMemo(() => Math.floor(Date.now() / 60_000) * 60_000, [page]);
}

/**
 * Lines found by their note (kept on this machine) that the server's search did not return: a
 * labelled group under the page, so they are never taken for the server's results.
 */
function LocalGroup({
  width,
  columns,
  cursor,
  now,
  lines,
}: {
  readonly width: number;
  readonly columns: ReturnType<typeof layoutColumns<LineListItem>>;
  readonly cursor: number;
  readonly now: number;
  readonly lines: readonly LineListItem[];
}) {
  const m = useApp((s) => s.localMatches);
  const marked = useApp((s) => s.marked);
  if (m?.load.status !== 'ready') return null;
  const { gone } = m.load.data;
  const total = m.load.data.lines.length;
  // Not reached, or not readable, is not gone: said in the one wording of each (notesUnsettledText).
  const farText = notesUnsettledText(m.load.data) ?? '';
  const far = farText !== '';
  const heading = total
    ? `${total} more found in local notes${far ? '' : " (not by the server's search)"}${total > LOCAL_MAX || m.more ? ` — ${LOCAL_MAX} shown at most, refine the search` : ''}${far ? ` · ${farText}` : ''}${gone ? ` · ${gone} noted line${gone === 1 ? '' : 's'} no longer on the service` : ''}`
    : farText;
  return (
    <Box flexDirection="column">
      <Text color={color('ui.accent')} wrap="truncate">
        {fitWidth(`   ── ${heading} ──`, width)}
      </Text>
      {lines.map((line, i) => (
        <LineRow
          // biome-ignore lint/suspicious/noArrayIndexKey: the slot on screen is the row's identity
          key={i}
          line={line}
          columns={columns}
          isCursor={i === cursor}
          isMarked={marked.has(line.id)}
          now={now}
        />
      ))}
    </Box>
  );
}

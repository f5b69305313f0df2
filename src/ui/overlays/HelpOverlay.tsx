import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { helpScopesOf, helpSections, keyLabel, type Scope, said } from '../../commands/keymap';
import { scopeTitle } from '../../commands/keys-doc';
import { fitWidth } from '../../domain/format';
import { windowOf } from '../../domain/scroll';
import { spoken } from '../../present/speech';
import { selectScreen } from '../../store/view-stack';
import { useApp } from '../store-context';
import { color } from '../theme';
import { useKeysNamed } from '../use-keys-named';
import { usePageRows } from '../use-page-rows';

export type Row =
  | { readonly kind: 'title'; readonly text: string }
  | {
      readonly kind: 'key';
      readonly keys: string;
      readonly label: string;
      /** The keys as heard: "j or Down" (alternatives), ":run crm" (one command typed). */
      readonly said: string;
    };

/**
 * Generated from the command table, so it cannot drift from the real bindings: a section per scope
 * that works on this screen (its own, the menus it opens, everywhere), each listing exactly the
 * commands dispatch would run there.
 */
export function HelpOverlay({ width, height }: { readonly width: number; readonly height: number }) {
  const screen = useApp((s) => selectScreen(s).id);
  const scopes = useApp(useShallow(helpScopesOf));
  const rows = helpRowsOf(scopes);
  const scroll = useApp((s) => s.scroll.help);
  const isSpoken = useIsScreenReaderEnabled();
  const { win, laid, colWidth, keysWidth } = helpLayout(
    rows,
    width,
    height,
    scroll,
    isSpoken ? 1 : undefined,
  );
  // How many rows are in view: a scroll stops where the last ones fill them (ui-slice `scrollBy`),
  // and the scroll keys are offered only when some are not (commands/areas/app.ts). The title names
  // them on the frames the footer offers them (use-page-rows.ts).
  const isCounted = usePageRows('help', win.end - win.start);
  // The keys the title names, each only while it works (keyNamed's rule): one that does not is left
  // out, and the scroll keys are named only when all four work.
  const k = useKeysNamed(['help.close', 'help.up', 'help.down', 'help.pageUp', 'help.pageDown'] as const);
  const closes = said(k['help.close'], 'closes');
  const scrollKeys =
    k['help.up'] && k['help.down'] && k['help.pageUp'] && k['help.pageDown']
      ? `${k['help.up']}/${k['help.down']} ${k['help.pageUp']}/${k['help.pageDown']} scroll`
      : null;
  const title = ` Keys — ${screen} screen${closes ? ` (${closes})` : ''}${win.position ? ` · ${win.position}` : ''}${
    win.position && isCounted && scrollKeys ? `, ${scrollKeys}` : ''
  }`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('ui.accent')} aria-label={spoken(title)}>
        {title}
      </Text>
      <Box>
        {laid.map((column, ci) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: columns of a fixed layout
          <Box key={ci} flexDirection="column" width={colWidth}>
            {column.map((r, i) =>
              r.kind === 'title' ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed list
                <Text key={i} bold wrap="truncate">
                  {fitWidth(` ${r.text}`, colWidth)}
                </Text>
              ) : (
                <Text
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed list
                  key={i}
                  wrap="truncate"
                  aria-label={`${r.said}: ${spoken(r.label)}`}
                >
                  <Text color={color('ui.focus')}>{fitWidth(`   ${r.keys}`, keysWidth)}</Text>
                  {fitWidth(r.label, Math.max(0, colWidth - keysWidth - 1))}
                </Text>
              ),
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * Rows `start`…`end` laid into at most `count` columns of `perColumn`: a column that starts inside a
 * section begins with its heading again ("… (continued)"), and no column ends on a heading.
 */
function intoColumns(
  rows: readonly Row[],
  start: number,
  end: number,
  perColumn: number,
  count: number,
): Row[][] {
  const titleAt = (i: number) => {
    for (let j = i; j >= 0; j--) {
      const r = rows[j]!;
      if (r.kind === 'title') return r.text;
    }
    return '';
  };
  const columns: Row[][] = [];
  let i = start;
  while (i < end && columns.length < count) {
    const column: Row[] =
      rows[i]!.kind === 'title' ? [] : [{ kind: 'title', text: `${titleAt(i)} (continued)` }];
    while (column.length < perColumn && i < end) column.push(rows[i++]!);
    if (column.length > 1 && column.at(-1)!.kind === 'title') {
      column.pop();
      i--;
    }
    columns.push(column);
  }
  return columns;
}

/**
 * More columns when the list is taller than the screen, only as many as show every label whole;
 * then scrolling. Pure, for tests at any width.
 */
export function helpLayout(
  rows: readonly Row[],
  width: number,
  height: number,
  scroll: number,
  /** The screen-reader mode reads one column (side by side, Ink says them one after the other). */
  maxColumns = Number.POSITIVE_INFINITY,
) {
  const perColumn = Math.max(1, height - 2);
  const keysWidth = Math.max(8, ...rows.map((r) => (r.kind === 'key' ? r.keys.length + 4 : 0)));
  const longest = Math.max(...rows.map((r) => (r.kind === 'key' ? r.label.length : r.text.length)));
  const fit =
    rows.length > perColumn
      ? Math.max(1, Math.min(maxColumns, Math.floor(width / (keysWidth + 2 + longest))))
      : 1;
  let win = windowOf(rows.length, perColumn * fit, scroll);
  let laid = intoColumns(rows, win.start, win.end, perColumn, fit);
  // A "(continued)" heading, or a heading moved to the next column, takes a row: at the end of the
  // list the window starts later until its last row is drawn (else the last keys could never show).
  let start = win.start;
  while (win.end === rows.length && start < rows.length - 1 && shownRows(laid) < win.end - start) {
    start++;
    laid = intoColumns(rows, start, rows.length, perColumn, fit);
    win = { start, end: rows.length, position: `${start + 1}–${rows.length} of ${rows.length}` };
  }
  const colWidth = Math.floor(width / Math.max(1, laid.length));
  return { win, laid, colWidth, keysWidth, labelWidth: Math.max(0, colWidth - keysWidth - 1) };
}

/** The rows of the list a layout draws (a repeated "(continued)" heading is not one of them). */
const shownRows = (laid: readonly (readonly Row[])[]): number =>
  laid.reduce(
    (n, column) => n + column.filter((r) => !(r.kind === 'title' && r.text.endsWith(' (continued)'))).length,
    0,
  );

/** Help's rows for these scopes: a heading per section, then its commands (helpSections). */
export const helpRowsOf = (scopes: readonly Scope[]): Row[] =>
  helpSections(scopes).flatMap(({ scope, commands }) => [
    { kind: 'title' as const, text: scope ? scopeTitle(scope) : 'Your commands with no key' },
    ...commands.map((c) => {
      if (scope) {
        const keys = c.keys.map(keyLabel);
        return {
          kind: 'key' as const,
          keys: keys.join(' '),
          said: keys.join(' or '),
          label: `${c.label}${c.danger ? '  (changes data)' : ''}`,
        };
      }
      const keys = `:run ${c.id.slice(c.id.indexOf('.') + 1)}`;
      return { kind: 'key' as const, keys, label: c.label, said: keys };
    }),
  ]);

import { Box, Text } from 'ink';
import { useLayoutEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { joined, said } from '../../commands/keymap';
import { countText, fitWidth } from '../../domain/format';
import { windowOf } from '../../domain/scroll';
import { wrapCells } from '../../present/wrap';
import { useApp } from '../store-context';
import { color } from '../theme';
import { confirmDoes, droppedNote, useConfirmGuard } from '../use-confirm-guard';
import { useKeysNamed } from '../use-keys-named';
import { usePageRows } from '../use-page-rows';

/**
 * A command of yours (the config's `commands`): what it will run and on which lines, then its
 * output as it was kept (bounded, made safe to show by app/run-program.ts), a heading per line with
 * how the run ended. `:run` alone lists the commands and what the config left out.
 */
export function OutputOverlay({ width, height }: { readonly width: number; readonly height: number }) {
  const run = useApp(
    useShallow((s) =>
      s.userRun
        ? {
            label: s.userRun.label,
            phase: s.userRun.phase,
            rows: s.userRun.rows,
            done: s.userRun.done,
            total: s.userRun.lines.length,
          }
        : null,
    ),
  );
  const drawn = useApp((s) => s.userRunDrawn);
  const scroll = useApp((s) => s.scroll.output);
  // Long lines wrap (output is read whole, not cut): a heading keeps its tone on each of its rows.
  // Wrapped when the output or the width changes, not at each scroll key.
  const output = run?.rows;
  const rows = useMemo(
    () =>
      (output ?? []).flatMap((row): { text: string; ok: boolean | null }[] =>
        typeof row === 'string'
          ? wrapCells(row, Math.max(1, width - 1)).map((text) => ({ text, ok: null }))
          : wrapCells(row.heading, Math.max(1, width - 1)).map((text) => ({ text, ok: row.ok })),
      ),
    [output, width],
  );
  useLayoutEffect(() => drawn(rows.length), [drawn, rows.length]);
  const win = windowOf(rows.length, Math.max(1, height - 3), scroll);
  // How many rows are in view: a page key moves by them, a scroll stops where the last ones fill them,
  // and the scroll keys are offered (and named in the title) only when some are not (areas/output.ts).
  const isCounted = usePageRows('output', win.end - win.start);
  // Its Enter runs a program on the lines named: the key gate holds a key typed before it was read.
  const guard = useConfirmGuard(null);
  const note = droppedNote(guard);
  // The keys its title names, only while they work (not under the help overlay or the palette).
  const k = useKeysNamed(['output.run', 'output.close', 'output.down', 'output.up'] as const);
  if (!run) return null;
  const state =
    run.phase === 'confirm'
      ? joined([
          joined(
            [said(k['output.run'], confirmDoes(guard, 'runs it')), said(k['output.close'], 'does not')],
            ', ',
          ),
          note,
        ])
      : run.phase === 'running'
        ? joined([
            `running, ${countText(run.done)} of ${countText(run.total)} done`,
            said(k['output.close'], 'stops it'),
          ])
        : run.phase === 'done'
          ? joined(['done', said(k['output.close'], 'closes')])
          : joined([said(k['output.close'], 'closes')]);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('ui.accent')} wrap="truncate">
        {fitWidth(
          ` ${run.label} — ${state}${win.position ? ` · ${win.position}` : ''}${win.position && isCounted && k['output.down'] && k['output.up'] ? `, ${k['output.down']}/${k['output.up']} scroll` : ''}`,
          width,
        )}
      </Text>
      <Text> </Text>
      {rows.slice(win.start, win.end).map((row, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed text, by place
          key={i}
          wrap="truncate"
          {...(row.ok === null ? {} : { bold: true, color: color(row.ok ? 'tone.success' : 'tone.error') })}
        >
          {fitWidth(` ${row.text}`, width)}
        </Text>
      ))}
    </Box>
  );
}

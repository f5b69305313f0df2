import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { useMemo } from 'react';
import { keyNamed, said, wrapped } from '../../commands/keymap';
import { counted, countText, credits, creditsText } from '../../domain/format';
import type { RenewalsPlan } from '../../domain/renewals';
import { centredWindow } from '../../domain/scroll';
import { type BalanceShown, balanceToJudge } from '../../present/balance';
import { rowSentence, spokenPageSize } from '../../present/speech';
import { layoutColumns, RENEWAL_COLUMNS, rowText } from '../../present/tables';
import { selectRenewalsItems, selectRenewalsPlan } from '../../store/renewals-slice';
import { isUnjudged, selectBalanceShown, selectBalanceToJudge } from '../../store/selectors';
import { loaded } from '../../store/types';
import { LoadState } from '../components/LoadState';
import { TableRow } from '../components/SpokenRow';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { usePageRows } from '../use-page-rows';

/**
 * The summary under the title: the total, what the balance covers, the low-balance warning. What it
 * covers is judged as every change is (present/balance.ts `balanceToJudge`): never from a stale
 * balance, which is said stale with the key that reads it again (`readAgain`, null while no key does).
 */
function totalText(
  plan: RenewalsPlan,
  months: number,
  balance: BalanceShown | undefined,
  readAgain: string | null,
): string {
  const free = plan.groups.find((g) => g.group === 'unsuspend')?.count ?? 0;
  const unsuspend = free ? `${counted(free, 'suspended line')} with paid time: unsuspend (free)` : '';
  if (!plan.renewable) return ['Nothing to renew in this window.', unsuspend].filter(Boolean).join(' · ');
  const parts = [
    `${counted(plan.renewable, 'line')} to renew for ${counted(months, 'month')}: ~${credits(plan.total)} (estimate)`,
  ];
  if (plan.unpriced) parts.push(`${counted(plan.unpriced, 'line')} without a price`);
  const judged = balanceToJudge(balance);
  if (judged !== undefined)
    parts.push(
      plan.covered >= plan.renewable
        ? 'the balance covers all'
        : `the balance (${creditsText(judged)}) covers ${countText(plan.covered)}`,
    );
  // Stale: whether it covers them is not said (the header gives the number, stale, as of when).
  else if (isUnjudged(balance))
    parts.push(`the balance is stale: ${said(readAgain, 'reads it again') ?? 'read it again'}`);
  // Last: the money comes first on a narrow screen.
  if (unsuspend) parts.push(unsuspend);
  return parts.join(' · ');
}

export function RenewalsScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const load = useApp((s) => s.renewals);
  const plan = useApp(selectRenewalsPlan);
  const months = useApp((s) => s.renewalsMonths);
  const w = useApp((s) => s.renewalsWindow);
  const cursor = useApp((s) => s.renewalsCursor);
  const marked = useApp((s) => s.marked);
  // Named only while marking works (not in read-only mode, not with nothing to renew).
  const markHint = useApp((s) => said(keyNamed(s, 'renewals.markAll'), 'marks every renewable line'));
  const renewHint = useApp((s) => said(keyNamed(s, 'line.extend'), 'renews the marked ones (quoted first)'));
  // The window's keys, named only while they work (not under the palette or the copy menu).
  const shorterKey = useApp((s) => keyNamed(s, 'renewals.shorter'));
  const longerKey = useApp((s) => keyNamed(s, 'renewals.longer'));
  const balance = useApp(selectBalanceShown);
  const judged = useApp(selectBalanceToJudge);
  // The key that reads the balance again (the global refresh), named only while it works here.
  const readAgainKey = useApp((s) => keyNamed(s, 'app.refresh'));
  const data = loaded(load);
  const isSpoken = useIsScreenReaderEnabled();
  const now = data?.at ?? 0;
  const laid = useMemo(
    () => layoutColumns(RENEWAL_COLUMNS, width - 3, 1, plan ? { items: plan.rows, now } : undefined),
    [width, plan, now],
  );
  // The layout the page keys move over (store/renewals-slice.ts `renewalsPageDelta`).
  const { items } = useApp(selectRenewalsItems);
  const at = items.findIndex((it) => it.kind === 'row' && it.index === cursor);
  // Read aloud, a row is a sentence that wraps (and so may the title and the summary): as many as
  // fit, or the selected one falls below the screen and is never heard.
  const size = Math.max(1, isSpoken ? spokenPageSize(height - 7, width) : height - 5);
  const view = centredWindow(items.length, size, at);
  // PgDn/PgUp move by what is on screen (commands/areas/renewals.ts); read only when a key comes (no
  // frame names them by it), and what fits depends on the terminal alone: drawn for nothing more.
  usePageRows('renewals', size);
  const windowKeys = [shorterKey, longerKey].filter(Boolean).join('/');
  const title = ` Renewals — expiring within ${counted(w.withinDays, 'day')}${wrapped(said(windowKeys || null, 'change it'))}, expired in the last ${counted(w.expiredDays, 'day')}, suspended${view.position ? `   ${view.position}` : ''}`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {title}
      </Text>
      <LoadState load={load} what="renewals" />
      {plan && (
        <Text
          color={
            judged !== undefined && plan.covered < plan.renewable
              ? color('ui.badge')
              : isUnjudged(balance)
                ? color('tone.warning')
                : undefined
          }
          wrap="truncate"
        >
          {` ${totalText(plan, months, balance, readAgainKey)}`}
        </Text>
      )}
      {data?.capped && (
        <Text color={color('ui.badge')} wrap="truncate">
          {' A group stopped at 1,000 lines: narrow the window to see the rest.'}
        </Text>
      )}
      {plan && plan.rows.length > 0 && (
        <Text color={color('ui.muted')} wrap="truncate" aria-hidden>{`   ${rowText(laid, null)}`}</Text>
      )}
      {plan && plan.rows.length > 0 && !marked.size && markHint && (
        <Text color={color('ui.muted')} wrap="truncate">
          {` ${[markHint, renewHint].filter(Boolean).join(', ')}`}
        </Text>
      )}
      {items.slice(view.start, view.end).map((it, i) => {
        if (it.kind === 'heading')
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the slot on screen is the row's identity
            <Text key={i} bold color={color('ui.accent')} wrap="truncate">
              {` ${it.text}`}
            </Text>
          );
        const row = plan!.rows[it.index]!;
        const isCursor = it.index === cursor;
        return (
          <TableRow
            // biome-ignore lint/suspicious/noArrayIndexKey: the slot on screen is the row's identity
            key={i}
            inverse={isCursor}
            wrap="truncate"
            isSelected={isCursor}
            say={() => rowSentence(RENEWAL_COLUMNS, row, now, [marked.has(row.line.id) && 'marked'])}
          >
            {`${isCursor ? glyph('cursor') : ' '}${marked.has(row.line.id) ? glyph('mark') : ' '} ${rowText(laid, row, now)}`}
          </TableRow>
        );
      })}
    </Box>
  );
}

import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { cellWidth, counted, countText, credits, fitWidth } from '../../domain/format';
import { runwayText } from '../../domain/runway';
import { balanceShortText, balanceText } from '../../present/balance';
import { selectRunway } from '../../store/runway-slice';
import { selectBalanceShown } from '../../store/selectors';
import { loaded } from '../../store/types';
import { useApp } from '../store-context';
import { color } from '../theme';
import { layoutHeader } from './header-items';

/** One line: account email, credits, lines count, the target and badges. */
export function Header({ width }: { readonly width: number }) {
  const email = useApp((s) => loaded(s.account)?.email ?? '…');
  // Not the service's word any more (a read failed, or it cannot be reached): said, with since when,
  // never shown as current; the same state every place that shows the balance reads.
  const shown = useApp(selectBalanceShown);
  const balance = shown?.credits;
  const linesCount = useApp((s) => loaded(s.account)?.lines_count);
  const accountError = useApp((s) => (s.account.status === 'error' ? s.account.error : null));
  const target = useApp((s) => s.target.label);
  const readOnly = useApp((s) => s.readOnly);
  const marked = useApp((s) => s.marked.size);
  const lowBalance = useApp((s) => s.lowBalance);
  // Worked out from the balance it is judged by (`selectRunway`: none while that balance is stale,
  // where it would read as today's runway; the rule is present/balance.ts `balanceToJudge`).
  const runwayNow = useApp((s) => {
    const r = selectRunway(s);
    return r ? runwayText(r) : '';
  });
  const drift = useApp((s) => (s.drift?.verdict.kind === 'drift' ? s.drift.verdict.difference : null));
  const isJobRunning = useApp((s) => s.bulk?.phase === 'running');
  // Below the profile's threshold the balance is in the warning tone, and says so in words.
  const low = balance !== undefined && lowBalance !== null && balance < lowBalance;
  // The screen-reader mode rewrites the whole screen at each change: while a bulk job runs, the
  // balance and the marks (which move at every line) are said when it ends, not line by line.
  const quiet = useIsScreenReaderEnabled() && isJobRunning;
  const laid = layoutHeader(width, {
    email,
    money: quiet
      ? 'balance: said when the job ends'
      : shown === undefined
        ? ''
        : `${balanceText(shown)}${low ? ' (low)' : ''}`,
    ...(shown?.stale && !quiet ? { moneyShort: `${balanceShortText(shown)}${low ? ' (low)' : ''}` } : {}),
    lines: linesCount === undefined ? '' : counted(linesCount, 'line'),
    // Why it is stale, where the runway goes first when the line is short.
    runway: accountError ? `account not read: ${accountError}` : runwayNow,
    drift:
      drift === null ? '' : `balance moved ${drift > 0 ? '+' : '−'}${credits(Math.abs(drift))} unexplained`,
    marked: marked && !quiet ? `${countText(marked)} marked` : '',
    badges: `${readOnly ? '[READ-ONLY] ' : ''}[${target}] `,
  });
  const room = Math.max(0, width - cellWidth(laid.badges));
  return (
    <Box width={width}>
      {accountError && shown === undefined ? (
        <Text bold color={color('ui.accent')} wrap="truncate">
          {fitWidth(` linedesk  account: ${accountError}`, room)}
        </Text>
      ) : (
        <Text bold color={color('ui.accent')} wrap="truncate">
          {laid.head}
          <Text color={low || shown?.stale ? color('tone.warning') : undefined} inverse={low}>
            {laid.money}
          </Text>
          {laid.rest}
        </Text>
      )}
      <Text color={color('ui.badge')} wrap="truncate">
        {laid.badges}
      </Text>
    </Box>
  );
}

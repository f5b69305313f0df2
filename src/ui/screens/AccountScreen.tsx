import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { LineListItem, Package } from '../../api/contract';
import { keyNamed, said, wrapped } from '../../commands/keymap';
import { driftText } from '../../domain/balance-drift';
import { counted, countText, credits, creditsText, fitWidth } from '../../domain/format';
import { affordableCount } from '../../domain/pricing';
import { type Runway, runwayText } from '../../domain/runway';
import { type StatusCountsIn, statusGroups } from '../../domain/status-groups';
import { balanceToJudge, staleText } from '../../present/balance';
import type { Column } from '../../present/lines-columns';
import { RUNWAY_COLUMNS, RUNWAY_DUE_COLUMNS } from '../../present/runway-columns';
import { rowSentence, spoken } from '../../present/speech';
import { layoutColumns, PACKAGE_COLUMNS, rowText } from '../../present/tables';
import type { DriftReport } from '../../services/balance-watch';
import { selectRunway, selectRunwayDue } from '../../store/runway-slice';
import { isUnjudged, selectBalanceShown } from '../../store/selectors';
import { loaded } from '../../store/types';
import { LoadState } from '../components/LoadState';
import { TableRow } from '../components/SpokenRow';
import { useApp } from '../store-context';
import { color } from '../theme';

/** Email, balance, server, counts per status and type, and what the balance affords. */
export function AccountScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const account = useApp((s) => s.account);
  const counts = useApp((s) => s.counts);
  // The balance as the header says it: a stale one said stale, with since when.
  const shown = useApp(selectBalanceShown);
  const packages = useApp((s) => s.packages);
  const runwayLoad = useApp((s) => s.runway);
  const runway = useApp(selectRunway);
  // What the balance judges (present/balance.ts `balanceToJudge`, the one rule): a stale one nothing.
  const balance = balanceToJudge(shown);
  const unjudged = isUnjudged(shown);
  // The runway's lines with no balance: listed while it is stale, which of them lapse not said.
  const due = useApp((s) => (unjudged ? selectRunwayDue(s) : null));
  // The key that reads the balance again (the global refresh), named only while it works here.
  const readAgainKey = useApp((s) => keyNamed(s, 'app.refresh'));
  const drift = useApp((s) => s.drift);
  const acct = loaded(account);
  const apart = runway ? apartText(runway) : '';
  const drifted = driftLine(drift);
  const c = loaded(counts);
  const lines: Array<[string, string]> = [];
  if (acct) {
    lines.push(
      ['Email', acct.email],
      [
        'Credits',
        shown?.stale ? `${creditsText(shown.credits)} (${staleText(shown)})` : creditsText(acct.credits),
      ],
      // Worked out from the balance: none from a stale one (`selectRunway`, as the header), said so.
      [
        'Runway',
        unjudged
          ? `not known now: the balance is stale${wrapped(said(readAgainKey, 'reads it again'))}`
          : runwayLine(runway, runwayLoad.status === 'error' ? runwayLoad.error : null),
      ],
      ...(apart ? [['Not counted', apart] as [string, string]] : []),
      ...(drifted ? [['Drift', drifted] as [string, string]] : []),
      ['Lines', countText(acct.lines_count)],
      ['Server', acct.server_information.hostname],
      ['MAG portal', acct.server_information.mag_portal_url],
    );
  }
  // Statuses and types are two different questions: one row each.
  const byStatus =
    counts.status === 'error' ? `could not count: ${counts.error}` : c ? statusText(c) : 'counting…';
  const byType = c ? `${countText(c.premium)} premium · ${countText(c.trial)} trial` : '';
  const pk = loaded(packages) ?? [];
  // The packages table's columns, and how many times the balance affords each: only while the
  // balance is the service's word (blank while it is stale, as before it is read).
  const affords: Column<Package> = {
    id: 'affords',
    header: 'AFFORDS',
    width: 8,
    align: 'right',
    cell: (p) => {
      if (balance === undefined) return '';
      const n = affordableCount(balance, p);
      return Number.isFinite(n) ? countText(n) : 'any';
    },
  };
  // The lines the balance would not renew, soonest first: as many as leave room for the packages.
  // While the balance is stale, the lines due first, stale as the header says it: which lapse is not
  // worked out from it.
  const room = Math.max(0, Math.min(5, height - lines.length - 11));
  const lapsing = unjudged
    ? due &&
      lapseTable(
        `First to lapse: not known now, the balance is ${staleText(shown!)}; due first (${counted(due.rows.length, 'line')}):`,
        due.rows.slice(0, room),
        RUNWAY_DUE_COLUMNS,
        due.at,
        width,
      )
    : runway &&
      lapseTable(
        `First to lapse (${counted(runway.lapsing.length, 'line')})`,
        runway.lapsing.slice(0, room),
        RUNWAY_COLUMNS,
        runway.at,
        width,
      );
  const lapsingRows = lapsing?.rows ?? 0;
  const laid = layoutColumns(
    [...PACKAGE_COLUMNS.filter((c) => c.id !== 'type' && c.id !== 'duration'), affords],
    width - 2,
    1,
    { items: pk, now: 0 },
  );
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold> Account</Text>
      <LoadState load={account} what="the account" />
      {lines.map(([k, v]) => (
        <Text key={k} wrap="truncate" aria-label={`${k}: ${spoken(v)}`}>
          <Text color={color('ui.muted')}>{fitWidth(`  ${k}`, 14)}</Text>
          {v}
        </Text>
      ))}
      <Text wrap="truncate" aria-label={`By status: ${spoken(byStatus)}`}>
        <Text color={color('ui.muted')}>{fitWidth('  By status', 14)}</Text>
        {byStatus}
      </Text>
      {byType && (
        <Text wrap="truncate" aria-label={`By type: ${spoken(byType)}`}>
          <Text color={color('ui.muted')}>{fitWidth('  By type', 14)}</Text>
          {byType}
        </Text>
      )}
      {lapsing?.node}
      <Text> </Text>
      <Text bold wrap="truncate" aria-hidden>{`  ${rowText(laid, null)}`}</Text>
      <LoadState load={packages} what="packages" />
      {pk.slice(0, Math.max(0, height - lines.length - 6 - (lapsingRows ? lapsingRows + 3 : 0))).map((p) => (
        <TableRow key={p.id} wrap="truncate" say={() => rowSentence(PACKAGE_COLUMNS, p)}>
          {`  ${rowText(laid, p)}`}
        </TableRow>
      ))}
    </Box>
  );
}

/** The "first to lapse" table: its title, column headers and `rows` (each in the warning tone); null
 *  without rows. */
function lapseTable<R extends { readonly line: LineListItem }>(
  title: string,
  rows: readonly R[],
  columns: readonly Column<R>[],
  at: number,
  width: number,
): { readonly rows: number; readonly node: ReactNode } | null {
  // No room for a line of it (or none to list): no title either.
  if (rows.length === 0) return null;
  const laid = layoutColumns(columns, width - 2, 1, { items: rows, now: at });
  return {
    rows: rows.length,
    node: (
      <>
        <Text> </Text>
        <Text bold wrap="truncate">{`  ${title}`}</Text>
        <Text bold wrap="truncate" aria-hidden>{`  ${rowText(laid, null)}`}</Text>
        {rows.map((r) => (
          <TableRow
            key={r.line.id}
            wrap="truncate"
            color={color('tone.warning')}
            say={() => rowSentence(columns, r, at)}
          >
            {`  ${rowText(laid, r, at)}`}
          </TableRow>
        ))}
      </>
    ),
  };
}

/** One group per line, adding up to the lines (domain/status-groups.ts), and the count that crosses them. */
function statusText(c: StatusCountsIn): string {
  const g = statusGroups(c);
  return `${g.groups.map((x) => `${countText(x.count)} ${x.label}`).join(' · ')}${g.disjoint ? ` (= ${countText(c.all)})` : ''}; ${g.note}`;
}

/** The runway in words: what it covers, what renewing the window needs, and what it leaves out. */
function runwayLine(r: Runway | null, error: string | null): string {
  if (!r) return error ? `could not be read: ${error}` : 'reading…';
  return `${runwayText(r)}: ${counted(r.rows.length, 'line')} expiring within ${counted(r.days, 'day')} need ${credits(r.needed)} (estimate)`;
}

/** What the runway leaves out, and why. */
function apartText(r: Runway): string {
  return [
    r.trials.length ? `${counted(r.trials.length, 'trial')} (cannot be extended)` : '',
    r.suspended.length ? counted(r.suspended.length, 'suspended line') : '',
    r.unpriced ? `${countText(r.unpriced)} with no 1-month price` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** A drift said (with its amount), or why the balance is not watched; nothing when all is well. */
function driftLine(d: DriftReport | null): string | null {
  if (!d) return null;
  if (d.verdict.kind === 'drift')
    return `${driftText(d.verdict.difference)} (expected ${creditsText(d.verdict.expected)})`;
  if (d.problem) return `not checked: ${d.problem}`;
  return null;
}

import { join } from 'node:path';
import { accountOf } from '../../app/account-id';
import { fileJournal } from '../../app/journal-file';
import { chooseTarget } from '../../app/target';
import { journalColumns } from '../../present/tables';
import { collapse, journalTotals, sumTotals, toCsv, totalsText } from '../../services/changes/journal';
import { filterJournal, leftOutText, parsePeriodEdge } from '../../services/changes/journal-filter';
import { completionScript } from '../completion';
import { EXIT, usageFailure } from '../failure';
import { tableText } from '../format';
import type { Ctx } from '../session';

/** The journal on this machine (no service is asked): one account's, one entry per operation. */
export async function journalCommand(ctx: Ctx): Promise<number> {
  const { out, run } = ctx;
  const now = ctx.now();
  const edges: { since: number | null; until: number | null } = { since: null, until: null };
  for (const edge of ['since', 'until'] as const) {
    const raw = run.values[edge];
    if (raw === undefined) continue;
    edges[edge] = parsePeriodEdge(String(raw), edge, now);
    if (edges[edge] === null) {
      const f = usageFailure(
        `--${edge} takes today, yesterday, a day (2026-11-01, a local day) or a time (2026-11-01T08:00:00Z), not "${String(raw).slice(0, 40)}"`,
        [edge],
      );
      out.fail(f);
      return f.exit;
    }
  }
  const all = run.values['all-accounts'] === true;
  let account: { readonly id: string; readonly label: string } | null = null;
  if (!all) {
    const choice = chooseTarget(run.target, ctx.io.env, ctx.config().config);
    if (choice.kind === 'error') {
      out.fail({
        code: 'config',
        message: choice.message,
        path: choice.field ? [choice.field] : null,
        exit: EXIT.usage,
      });
      return EXIT.usage;
    }
    account = accountOf(choice.kind === 'welcome' ? { kind: 'sandbox' } : choice, ctx.dirs.data);
  }
  const journal = fileJournal(join(ctx.dirs.data, 'journal.jsonl'));
  const read = collapse(journal.read());
  for (const problem of journal.skipped?.() ?? []) out.message(`linedesk: ${problem}`, 'yellow');
  const { entries, otherAccounts, noAccount } = filterJournal(read, {
    account: account?.id ?? null,
    sinceMs: edges.since,
    untilMs: edges.until,
  });
  const byDay = journalTotals(entries);
  const total = sumTotals(byDay);
  const period = [
    run.values.since !== undefined ? `since ${String(run.values.since)}` : '',
    run.values.until !== undefined ? `until ${String(run.values.until)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (run.format === 'json') {
    const doc = {
      account: account ? { id: account.id, service: account.label } : null,
      since: edges.since === null ? null : new Date(edges.since).toISOString(),
      until: edges.until === null ? null : new Date(edges.until).toISOString(),
      otherAccounts: account ? otherAccounts : 0,
      noAccount: account ? noAccount : 0,
      totals: { ...total, byDay },
      entries,
    };
    await out.data(`${JSON.stringify(doc, null, 2)}\n`);
    return EXIT.done;
  }
  const leftOut = account ? leftOutText(otherAccounts, noAccount) : '';
  const scope = account
    ? `${account.label}${leftOut ? ` (left out: ${leftOut}; --all-accounts shows them)` : ''}`
    : 'every account';
  out.message(`Journal of ${scope}${period ? `, ${period} (local days)` : ''}.`, 'dim');
  if (run.format === 'csv') {
    await out.data(toCsv(entries));
    return EXIT.done;
  }
  if (!entries.length) {
    out.message(period ? 'No entries in that period.' : 'The journal is empty.');
    return EXIT.done;
  }
  const columns = journalColumns(!account);
  await out.data(tableText(out, columns, entries, now));
  const lines = [
    `Total: ${totalsText(total)}`,
    ...byDay.map((t) => `  ${t.day}  ${t.operation}: ${totalsText(t)}`),
  ];
  // Under the table on a terminal; piped, the table stays tab-separated rows and the totals are a
  // message (stderr), so `| cut` and `| sort` see only entries.
  if (out.isTerminal) await out.data(`\n${lines.join('\n')}\n`);
  else for (const l of lines) out.message(l);
  return EXIT.done;
}

export async function completionCommand(ctx: Ctx): Promise<number> {
  await ctx.out.data(completionScript(ctx.run.args[0] as 'bash' | 'zsh' | 'fish'));
  return EXIT.done;
}

import { counted, credits } from '../../domain/format';
import { DEFAULT_WINDOW, planRenewals, type RenewalRow } from '../../domain/renewals';
import { skippedText } from '../../services/account';
import { fetchRenewals } from '../../services/renewals-fetch';
import type { Column } from '../../ui/lines-columns';
import { RENEWAL_COLUMNS } from '../../ui/tables';
import { parseDays } from '../args';
import { EXIT, failureOf, usageFailure } from '../failure';
import { csvText, dateValue, type Row, tableText } from '../format';
import { type Ctx, withServices } from '../session';
import { invalid } from './change-params';

const GROUP: Column<RenewalRow> = { id: 'group', header: 'GROUP', width: 9, cell: (r) => r.group };
const CSV_FIELDS = ['group', 'id', 'username', 'label', 'status', 'connections', 'exp_date', 'cost'];

/**
 * What needs renewing, from the list endpoint alone (services/renewals-fetch.ts), priced as the
 * renewals view prices it (domain/renewals.ts: an estimate, extend has no simulate endpoint).
 * --within and --expired apply to this run only; the saved window (`[`/`]` in the app) is the default.
 */
export function renewalsCommand(ctx: Ctx): Promise<number> {
  const { run, out } = ctx;
  const days = (name: 'within' | 'expired') => {
    const raw = run.values[name];
    if (raw === undefined) return null;
    return (
      parseDays(String(raw)) ?? usageFailure(`--${name} takes a number of days from 1 to 365 (7d)`, [name])
    );
  };
  const within = days('within');
  const expired = days('expired');
  const months = run.values.months === undefined ? 1 : Number(run.values.months);
  for (const f of [within, expired]) if (f !== null && typeof f !== 'number') return fail(ctx, f);
  if (![1, 3, 6, 12].includes(months)) return fail(ctx, invalid('months', '--months takes 1, 3, 6 or 12'));
  return withServices(ctx, async (sv) => {
    // This run's window and length, never saved: a script must not move the app's setting.
    const saved = sv.settings?.read().window ?? DEFAULT_WINDOW;
    const window = {
      withinDays: (within as number | null) ?? saved.withinDays,
      expiredDays: (expired as number | null) ?? saved.expiredDays,
    };
    const at = sv.now();
    const [found, account, packages] = await Promise.allSettled([
      fetchRenewals(sv.client, window, at),
      sv.client.me(),
      sv.client.packages(),
    ]);
    if (found.status === 'rejected') {
      sv.logError('renewals', found.reason);
      const f = failureOf(found.reason);
      out.fail(f);
      return f.exit;
    }
    if (packages.status === 'fulfilled' && packages.value.skipped.length)
      out.message(skippedText('package', packages.value.skipped), 'yellow');
    const balance = account.status === 'fulfilled' ? account.value.credits : null;
    // Without the package prices the lines are listed unpriced, as the screen lists them.
    const prices = packages.status === 'fulfilled' ? packages.value.packages : [];
    const plan = planRenewals(found.value, prices, months, balance, window, at);
    const now = ctx.now();
    const rows: Row[] = plan.rows.map((r) => ({
      group: r.group,
      id: r.line.id,
      username: r.line.username,
      label: r.line.label,
      status: RENEWAL_COLUMNS.find((c) => c.id === 'status')!.cell(r, now),
      connections: r.line.connections,
      exp_date: dateValue(r.line.exp_date),
      cost: r.cost,
    }));
    if (run.format === 'json') {
      await out.data(
        `${JSON.stringify(
          {
            window,
            months,
            estimate: true,
            balance,
            total: plan.total,
            renewable: plan.renewable,
            covered: plan.covered,
            unpriced: plan.unpriced,
            capped: found.value.capped,
            groups: plan.groups,
            rows,
          },
          null,
          2,
        )}\n`,
      );
      return EXIT.done;
    }
    if (run.format === 'csv') await out.data(csvText(rows, CSV_FIELDS));
    else if (plan.rows.length) await out.data(tableText(out, [GROUP, ...RENEWAL_COLUMNS], plan.rows, now));
    for (const g of plan.groups) if (g.count) out.message(`${g.label}: ${counted(g.count, 'line')}`, 'dim');
    out.message(
      `To renew ${counted(plan.renewable, 'line')} for ${counted(months, 'month')}: ${credits(plan.total)} (an estimate from the package prices)` +
        `${balance === null ? '' : `; the balance of ${credits(balance)} covers ${plan.covered}`}.`,
    );
    if (found.value.capped) out.message('A group stopped at 1,000 lines.', 'yellow');
    return EXIT.done;
  });
}

function fail(ctx: Ctx, f: ReturnType<typeof usageFailure>): Promise<number> {
  ctx.out.fail(f);
  return Promise.resolve(f.exit);
}

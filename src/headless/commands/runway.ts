import { driftWatchOf } from '../../app/drift-watch';
import { counted, credits } from '../../domain/format';
import { RUNWAY_DAYS, type RunwayRow, runwayText } from '../../domain/runway';
import { RUNWAY_COLUMNS } from '../../present/runway-columns';
import { skippedText } from '../../services/account';
import { readAccountWatched } from '../../services/balance-watch';
import { GROUP_CAP } from '../../services/renewals-fetch';
import { fetchRunwayLines, runwayOf } from '../../services/runway';
import { parseDays } from '../args';
import { driftPair, driftRecord } from '../drift';
import { EXIT, failureOf, usageFailure } from '../failure';
import { dateValue, tableText } from '../format';
import { type Ctx, withServices } from '../session';

const rowRecord = (r: RunwayRow) => ({
  id: r.line.id,
  username: r.line.username,
  label: r.line.label,
  connections: r.line.connections,
  exp_date: dateValue(r.line.exp_date),
  cost: r.cost,
  covered: r.covered,
});

/**
 * How many days the balance renews every line coming due (domain/runway.ts over the renewals fetch):
 * exit 0 when it covers the window, 7 when it does not, so a cron job can mail before customers go
 * dark. The account is read through the drift watch, as `linedesk account` reads it.
 */
export function runwayCommand(ctx: Ctx): Promise<number> {
  const { run, out } = ctx;
  const raw = run.values.days;
  const days = raw === undefined ? RUNWAY_DAYS : parseDays(String(raw));
  if (days === null) {
    const f = usageFailure('--days takes a number of days from 1 to 365 (14, 14d)', ['days']);
    out.fail(f);
    return Promise.resolve(f.exit);
  }
  return withServices(ctx, async (sv) => {
    const at = sv.now();
    let read: [
      Awaited<ReturnType<typeof fetchRunwayLines>>,
      Awaited<ReturnType<typeof readAccountWatched>>,
      Awaited<ReturnType<typeof sv.client.packages>>,
    ];
    try {
      // Without the prices nothing can be counted: a runway of unpriced lines would say "covered".
      read = await Promise.all([
        fetchRunwayLines(sv.client, days, at, () => out.closed),
        readAccountWatched(sv.client, driftWatchOf(sv)),
        sv.client.packages(),
      ]);
    } catch (err) {
      sv.logError('runway', err);
      const f = failureOf(err);
      out.fail(f);
      return f.exit;
    }
    const [lines, { account, drift }, packages] = read;
    if (packages.skipped.length) out.message(skippedText('package', packages.skipped), 'yellow');
    const r = runwayOf(lines, packages.packages, account.credits);
    const said = driftPair(drift);
    if (said) out.message(`${said[0]}: ${said[1]}`, said[2]);
    if (run.format === 'json') {
      await out.data(
        `${JSON.stringify(
          {
            days,
            balance: r.balance,
            estimate: r.estimate,
            covers: r.covers,
            coveredDays: r.coveredDays,
            needed: r.needed,
            renewals: r.rows.length,
            lapsing: r.lapsing.map(rowRecord),
            rows: r.rows.map(rowRecord),
            trials: r.trials.map((l) => ({
              id: l.id,
              username: l.username,
              exp_date: dateValue(l.exp_date),
            })),
            suspended: r.suspended.length,
            unpriced: r.unpriced,
            capped: lines.capped,
            drift: driftRecord(drift),
          },
          null,
          2,
        )}\n`,
      );
      return r.covers ? EXIT.done : EXIT.shortfall;
    }
    const within = `expiring within ${counted(days, 'day')}`;
    await out.data(
      `The balance of ${credits(r.balance)} ${runwayText(r)} (an estimate from the package prices): ` +
        `${r.rows.length ? `renewing the ${counted(r.rows.length, 'line')} ${within} for a month needs ${credits(r.needed)}` : `no line is ${within}`}.\n`,
    );
    if (r.lapsing.length) {
      await out.data(`First to lapse (${counted(r.lapsing.length, 'line')}):\n`);
      await out.data(tableText(out, RUNWAY_COLUMNS, r.lapsing, ctx.now()));
    }
    if (r.trials.length)
      out.message(
        `${counted(r.trials.length, 'trial line')} ${within}, not counted: trial lines cannot be extended (a new line replaces them).`,
        'dim',
      );
    if (r.suspended.length)
      out.message(`${counted(r.suspended.length, 'suspended line')} ${within}, not counted.`, 'dim');
    if (r.unpriced)
      out.message(
        `${counted(r.unpriced, 'line')} not counted: no regular 1-month package to price a renewal.`,
        'yellow',
      );
    if (lines.capped)
      out.message(`The list stopped at ${counted(GROUP_CAP, 'line')}: later ones are not counted.`, 'yellow');
    return r.covers ? EXIT.done : EXIT.shortfall;
  });
}

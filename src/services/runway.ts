/**
 * The credit runway, read for both front-ends: the lines expiring within the window (the renewals
 * fetch, services/renewals-fetch.ts, from the list endpoint alone), priced and walked by
 * domain/runway.ts against the balance.
 */
import type { Package } from '../api/contract';
import { DAY_MS } from '../domain/pricing';
import {
  planRunway,
  type Runway,
  type RunwayChange,
  type RunwayDue,
  type RunwayRead,
  runwayDue,
  runwayLinesAfter,
} from '../domain/runway';
import type { ServiceClient } from './client';
import { fetchRenewals, GROUP_CAP } from './renewals-fetch';

/** What a walk read (domain/runway.ts `RunwayRead`): what a settled change updates in place. */
export type RunwayLines = RunwayRead;

/** The lines expiring within `days` of `nowMs`, soonest first. */
export async function fetchRunwayLines(
  client: Pick<ServiceClient, 'listLines'>,
  days: number,
  nowMs: number,
  cancelled: () => boolean = () => false,
): Promise<RunwayLines> {
  // The expired side is not wanted: not read (a page of the list's pages less per walk).
  const found = await fetchRenewals(client, { withinDays: days, expiredDays: 0 }, nowMs, cancelled, {
    suspended: false,
  });
  // Capped is the expiring group's: a full expired side (read only for its edge) cuts nothing here.
  return { lines: found.expiring, capped: found.expiring.length >= GROUP_CAP, at: nowMs, days };
}

/** The lines already read that the runway would renew, soonest first, priced, with no balance. */
export const runwayDueOf = (read: RunwayLines, packages: readonly Package[]): RunwayDue =>
  runwayDue(read.lines, packages, read.days, read.at);

/** The runway of lines already read, against a balance (the header recomputes it as the balance moves). */
export function runwayOf(read: RunwayLines, packages: readonly Package[], balance: number): Runway {
  const plan = planRunway(read.lines, packages, balance, read.days, read.at);
  if (!read.capped || !plan.covers) return plan;
  // The lines after the cap were never read: covered up to the last one read, not the whole window
  // (an exit 0 from cron would be an all-clear for lines nobody counted).
  const last = Math.max(...read.lines.map((l) => l.exp_date?.ms ?? read.at));
  return { ...plan, covers: false, coveredDays: Math.max(0, Math.floor((last - read.at) / DAY_MS)) };
}

/**
 * The runway's lines after a settled change, kept from what the change told (domain/runway.ts
 * `runwayLinesAfter`, at the renewals fetch's cap), or null when only a walk knows.
 */
export function runwayAfterChange(read: RunwayLines, change: RunwayChange): RunwayLines | null {
  const lines = runwayLinesAfter(read, change, GROUP_CAP);
  if (lines === null) return null;
  return lines === read.lines ? read : { ...read, lines };
}

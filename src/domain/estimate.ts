import type { Package } from '../api/contract';
import { lineCost } from './pricing';

/**
 * Extend has no simulate endpoint: the app estimates from package prices (create's rule applied to
 * the line's connections) and labels the figure as an estimate. The server's charge is what counts.
 */
export function extendEstimate(
  packages: readonly Package[],
  months: number,
  connections: number,
): { cost: number; pkg: Package } | null {
  const pkg = packages.find((p) => !p.is_trial && p.duration === months);
  return pkg ? { cost: lineCost(pkg, connections), pkg } : null;
}

/** Calendar months in UTC; the 31st rolls to the month's last day rather than overflowing. */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

/** Months from the later of now and the current expiry (an expired line restarts now). */
export function extendedExpiry(expMs: number | null, months: number, nowMs: number): number {
  return addMonths(Math.max(nowMs, expMs ?? nowMs), months);
}

/** The expiry of a new line: months for regular packages, hours for trials. */
export function newLineExpiry(pkg: Package, nowMs: number): number {
  return pkg.is_trial ? nowMs + pkg.duration * 3_600_000 : extendedExpiry(null, pkg.duration, nowMs);
}

/**
 * Credit arithmetic shared by the sandbox (what it charges) and the app (estimates where the API has
 * no simulate endpoint, i.e. extend). The real service's rule is "not shown": the app labels its own
 * figures as estimates and always prefers a server quote where one exists.
 */

interface PackagePrice {
  readonly credits_cost: number;
  readonly extra_connection_credits_cost: number;
  readonly min_balance: number;
}

export const DAY_MS = 86_400_000;
/** A month, for proration and expiry arithmetic in the sandbox. */
const MONTH_DAYS = 30;

/** Create or extend: the package cost plus each connection beyond the first. */
export function lineCost(pkg: PackagePrice, connections: number): number {
  return pkg.credits_cost + pkg.extra_connection_credits_cost * Math.max(0, connections - 1);
}

/**
 * Upgrade: added connections cost the monthly extra-connection price prorated over the whole days
 * left (rounded up to a whole credit); removing connections is free.
 */
export function upgradeCost(
  monthly: PackagePrice,
  fromConnections: number,
  toConnections: number,
  expiresAtMs: number | null,
  nowMs: number,
): number {
  const added = toConnections - fromConnections;
  if (added <= 0 || expiresAtMs === null) return 0;
  const daysLeft = Math.max(0, Math.ceil((expiresAtMs - nowMs) / DAY_MS));
  return Math.ceil((added * monthly.extra_connection_credits_cost * daysLeft) / MONTH_DAYS);
}

/** The least balance an operation needs: its cost, and never below the package's min_balance. */
export function balanceNeeded(cost: number, pkg: PackagePrice | null): number {
  return Math.max(cost, pkg?.min_balance ?? 0);
}

/** How many times the balance affords a package at one connection, honouring min_balance. */
export function affordableCount(balance: number, pkg: PackagePrice): number {
  if (balance < pkg.min_balance) return 0;
  if (pkg.credits_cost <= 0) return Number.POSITIVE_INFINITY;
  return Math.floor(balance / pkg.credits_cost);
}

import { DAY_MS } from './pricing';

/** Lines expiring within this many days count as "expiring" (the service's rule is not shown). */
export const EXPIRING_WITHIN_DAYS = 7;

/** `unknown`: the server sent an expiry we could not read; never assumed active. */
export type LineStatus = 'active' | 'expiring' | 'expired' | 'suspended' | 'unknown';

interface StatusInput {
  readonly enabled: boolean;
  /** Expiry in ms since the epoch; null when never (or unreadable: see `expUnreadable`). */
  readonly expMs: number | null;
  /** The server sent an expiry that could not be parsed. */
  readonly expUnreadable?: boolean;
}

/** One word per line; suspended wins over expiry, as a reseller acts on it first. */
export function lineStatus(line: StatusInput, nowMs: number): LineStatus {
  if (!line.enabled) return 'suspended';
  if (line.expMs === null) return line.expUnreadable ? 'unknown' : 'active';
  if (line.expMs <= nowMs) return 'expired';
  if (line.expMs - nowMs <= EXPIRING_WITHIN_DAYS * DAY_MS) return 'expiring';
  return 'active';
}

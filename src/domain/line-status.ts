import { DAY_MS } from './pricing';

/** Lines expiring within this many days count as "expiring" (the service's rule is not shown). */
export const EXPIRING_WITHIN_DAYS = 7;

export type LineStatus = 'active' | 'expiring' | 'expired' | 'suspended';

export interface StatusInput {
  readonly enabled: boolean;
  /** Expiry in ms since the epoch; null when unknown or never. */
  readonly expMs: number | null;
}

/** One word per line; suspended wins over expiry, as a reseller acts on it first. */
export function lineStatus(line: StatusInput, nowMs: number): LineStatus {
  if (!line.enabled) return 'suspended';
  if (line.expMs === null) return 'active';
  if (line.expMs <= nowMs) return 'expired';
  if (line.expMs - nowMs <= EXPIRING_WITHIN_DAYS * DAY_MS) return 'expiring';
  return 'active';
}

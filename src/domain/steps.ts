// ←/→ on a duration or a connection count, within the limits the contract sets.
import { CONNECTIONS_MAX, CONNECTIONS_MIN, REGULAR_DURATIONS } from '../api/contract';

export type Months = (typeof REGULAR_DURATIONS)[number];

/** The next (or previous) regular duration, stopping at 1 and 12 months. */
export function stepMonths(months: Months, delta: number): Months {
  const i = REGULAR_DURATIONS.indexOf(months) + delta;
  return REGULAR_DURATIONS[Math.max(0, Math.min(REGULAR_DURATIONS.length - 1, i))]!;
}

/** Connections moved by `delta`, kept from 1 to 6. */
export function stepConnections(connections: number, delta: number): number {
  return Math.max(CONNECTIONS_MIN, Math.min(CONNECTIONS_MAX, connections + delta));
}

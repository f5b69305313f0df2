/**
 * The account's lines by status, in groups that add up. The API counts overlapping sets: `expiring`
 * lines are also `active`, and the expired count (by date, walked: the API has no filter) takes
 * suspended lines too. Shown side by side they summed to more than the lines. Here each line is in
 * one group — active and not expiring soon, expiring soon, suspended, neither (past its date, not
 * suspended) — and the expired-by-date count is said as what it is: a count across the groups.
 * The service's rules for its states are not shown: when the counts do not nest as assumed, the
 * groups are given as the service counts them, with which contains which.
 */
interface StatusGroup {
  readonly label: string;
  readonly count: number;
  readonly tone?: 'green' | 'yellow' | 'red' | 'magenta';
}

export interface StatusCountsIn {
  readonly all: number;
  readonly active: number;
  readonly suspended: number;
  readonly expiring: number;
  readonly expired: number | null;
}

export function statusGroups(c: StatusCountsIn): {
  readonly groups: readonly StatusGroup[];
  /** True when the groups are disjoint and add up to every line. */
  readonly disjoint: boolean;
  /** What the groups do not show on their own: the expired count, which crosses them. */
  readonly note: string;
} {
  const rest = c.all - c.active - c.suspended;
  const running = c.active - c.expiring;
  const expiredNote =
    c.expired === null
      ? 'lines past their expiry date: could not be counted'
      : `${c.expired} past their expiry date, suspended or not`;
  if (rest >= 0 && running >= 0)
    return {
      disjoint: true,
      groups: [
        { label: 'active', count: running, tone: 'green' },
        { label: 'expiring within 7 days', count: c.expiring, tone: 'yellow' },
        { label: 'suspended', count: c.suspended, tone: 'magenta' },
        { label: 'expired, not suspended', count: rest, tone: 'red' },
      ],
      note: expiredNote,
    };
  return {
    disjoint: false,
    groups: [
      { label: 'active', count: c.active, tone: 'green' },
      { label: 'suspended', count: c.suspended, tone: 'magenta' },
    ],
    note: `the service's own counts, which overlap: ${c.expiring} expiring (some of the active); ${expiredNote}`,
  };
}

import { creditsText } from '../domain/format';
import type { DueRow, RunwayRow } from '../domain/runway';
import { type Column, lineColumnsOf } from './lines-columns';

/** The runway's columns for either row kind: the browser's line columns, the cost, then `renews`. */
const runwayColumnsOf = <R extends Pick<RunwayRow, 'line' | 'cost'>>(
  renews: Column<R>,
): readonly Column<R>[] => [
  ...lineColumnsOf<R>(['username', 'label', 'connections', 'expiry']),
  {
    id: 'cost',
    header: 'COST~',
    width: 7,
    align: 'right',
    cell: (r) => (r.cost === null ? '?' : creditsText(r.cost)),
  },
  renews,
];

/** The runway's lines (the account screen's "first to lapse", `linedesk runway`): the browser's columns. */
export const RUNWAY_COLUMNS: readonly Column<RunwayRow>[] = runwayColumnsOf<RunwayRow>({
  id: 'renews',
  header: 'RENEWS',
  width: 7,
  cell: (r) => (r.cost === null ? 'no price' : r.covered ? 'covered' : 'lapses'),
  tone: (r) => (r.covered ? undefined : 'tone.warning'),
});

/**
 * The runway's lines while no balance judges them (a stale one: the account screen's "first to
 * lapse" then): the same columns, and RENEWS says that whether it renews is not known.
 */
export const RUNWAY_DUE_COLUMNS: readonly Column<DueRow>[] = runwayColumnsOf<DueRow>({
  id: 'renews',
  header: 'RENEWS',
  width: 9,
  cell: (r) => (r.cost === null ? 'no price' : 'not known'),
  tone: () => 'tone.warning',
});

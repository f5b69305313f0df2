import { creditsText } from '../domain/format';
import type { RunwayRow } from '../domain/runway';
import { type Column, lineColumnsOf } from './lines-columns';

/** The runway's lines (the account screen's "first to lapse", `linedesk runway`): the browser's columns. */
export const RUNWAY_COLUMNS: readonly Column<RunwayRow>[] = [
  ...lineColumnsOf<RunwayRow>(['username', 'label', 'connections', 'expiry']),
  {
    id: 'cost',
    header: 'COST~',
    width: 7,
    align: 'right',
    cell: (r) => (r.cost === null ? '?' : creditsText(r.cost)),
  },
  {
    id: 'renews',
    header: 'RENEWS',
    width: 7,
    cell: (r) => (r.cost === null ? 'no price' : r.covered ? 'covered' : 'lapses'),
    tone: (r) => (r.covered ? undefined : 'tone.warning'),
  },
];

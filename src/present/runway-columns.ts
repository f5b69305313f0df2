import { creditsText } from '../domain/format';
import type { RunwayRow } from '../domain/runway';
import { type Column, LINE_COLUMNS } from './lines-columns';

/** The runway's lines (the account screen's "first to lapse", `linedesk runway`): the browser's columns. */
export const RUNWAY_COLUMNS: readonly Column<RunwayRow>[] = [
  ...LINE_COLUMNS.filter((c) => ['username', 'label', 'connections', 'expiry'].includes(c.id)).map(
    (c): Column<RunwayRow> => ({
      ...c,
      sortKey: undefined,
      cell: (r, now) => c.cell(r.line, now),
      tone: c.tone ? (r, now) => c.tone!(r.line, now) : undefined,
      say: c.say ? (r, now) => c.say!(r.line, now) : undefined,
    }),
  ),
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

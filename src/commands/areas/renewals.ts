import { isRenewal } from '../../domain/renewals';
import type { AppState } from '../../store/app-store';
import { renewalsPageDelta, selectRenewalsItems, selectRenewalsPlan } from '../../store/renewals-slice';
import { selectRenewalLine } from '../../store/selectors';
import { areaScrollsNothing } from '../../store/ui-slice';
import { c, type Disabled, needsLine, writes } from '../command';

const renewable = (s: AppState) =>
  selectRenewalsPlan(s)
    ?.rows.filter((r) => isRenewal(r.group))
    .map((r) => r.line) ?? [];
const noLine = needsLine(selectRenewalLine);
/** A page is the rows the view shows as drawn at the size now (less one kept in sight), headings
 *  counted, so no line goes undrawn (store/renewals-slice.ts `renewalsPageDelta`): the page keys wait
 *  for that count (never a page of the size before), and move something only when some of the view's
 *  rows are out of view. */
const paged: Disabled = (s) => areaScrollsNothing(s, 'renewals', selectRenewalsItems(s).items.length, 'line');

/** The renewals view (6): what expires soon, what expired lately, what is suspended. */
export const RENEWALS_COMMANDS = [
  c('renewals.down', ['down', 'j'], 'renewals', 'Navigate', 'Next line', (s) => s.moveRenewalsCursor(1)),
  c('renewals.up', ['up', 'k'], 'renewals', 'Navigate', 'Previous line', (s) => s.moveRenewalsCursor(-1)),
  c(
    'renewals.pageDown',
    ['pagedown'],
    'renewals',
    'Navigate',
    'A page down',
    (s) => s.moveRenewalsCursor(renewalsPageDelta(s, 1)),
    { disabled: paged },
  ),
  c(
    'renewals.pageUp',
    ['pageup'],
    'renewals',
    'Navigate',
    'A page up',
    (s) => s.moveRenewalsCursor(renewalsPageDelta(s, -1)),
    { disabled: paged },
  ),
  c('renewals.first', ['g', 'home'], 'renewals', 'Navigate', 'First line', (s) =>
    s.moveRenewalsCursor(Number.NEGATIVE_INFINITY),
  ),
  c('renewals.last', ['G', 'end'], 'renewals', 'Navigate', 'Last line', (s) =>
    s.moveRenewalsCursor(Number.POSITIVE_INFINITY),
  ),
  c(
    'renewals.open',
    ['enter'],
    'renewals',
    'Navigate',
    'Open the line',
    (s) => {
      const line = selectRenewalLine(s);
      if (line) s.openDetail(line);
    },
    { footer: true, disabled: noLine },
  ),
  c(
    'renewals.shorter',
    ['['],
    'renewals',
    'Find',
    'Expiring window a step shorter (saved)',
    (s) => s.stepRenewalsWindow(-1),
    { footer: true },
  ),
  c(
    'renewals.longer',
    [']'],
    'renewals',
    'Find',
    'Expiring window a step longer (saved)',
    (s) => s.stepRenewalsWindow(1),
    { footer: true },
  ),
  c(
    'renewals.mark',
    ['space'],
    'renewals',
    'Marks',
    'Mark or unmark the line',
    (s) => {
      const line = selectRenewalLine(s);
      if (line) s.toggleMarkLine(line);
      s.moveRenewalsCursor(1);
    },
    { footer: true, disabled: (s) => writes(s) ?? noLine(s) },
  ),
  c(
    'renewals.markAll',
    ['a'],
    'renewals',
    'Marks',
    'Mark every line listed to renew (not trials, not suspended lines with paid time)',
    (s) => s.toggleMarkLines(renewable(s)),
    { footer: true, disabled: (s) => writes(s) ?? (renewable(s).length ? null : 'Nothing to renew') },
  ),
] as const;

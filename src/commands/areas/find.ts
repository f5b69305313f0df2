import { findPageDelta, selectFindItems, selectFoundLine } from '../../store/find-slice';
import { areaScrollsNothing } from '../../store/ui-slice';
import { c, type Disabled, needsLine } from '../command';

const noLine = needsLine(selectFoundLine);
/** A page is the rows the screen shows as drawn at the size now (less one kept in sight), headings and
 *  notes counted, so no row goes undrawn (store/find-slice.ts `findPageDelta`): the page keys wait for
 *  that count, and move something only when some of the screen's rows are out of view. */
const paged: Disabled = (s) => areaScrollsNothing(s, 'find', selectFindItems(s).items.length, 'match');

/** The find screen (`:find TEXT`): matches from every profile, grouped by profile. */
export const FIND_COMMANDS = [
  c('find.down', ['down', 'j'], 'find', 'Navigate', 'Next match', (s) => s.moveFindCursor(1)),
  c('find.up', ['up', 'k'], 'find', 'Navigate', 'Previous match', (s) => s.moveFindCursor(-1)),
  c(
    'find.pageDown',
    ['pagedown'],
    'find',
    'Navigate',
    'A page down',
    (s) => s.moveFindCursor(findPageDelta(s, 1)),
    {
      disabled: paged,
    },
  ),
  c(
    'find.pageUp',
    ['pageup'],
    'find',
    'Navigate',
    'A page up',
    (s) => s.moveFindCursor(findPageDelta(s, -1)),
    {
      disabled: paged,
    },
  ),
  c(
    'find.open',
    ['enter'],
    'find',
    'Navigate',
    'Open the line (in another profile: switch to it, the line open)',
    (s) => s.openFound(),
    { footer: true, disabled: noLine },
  ),
] as const;

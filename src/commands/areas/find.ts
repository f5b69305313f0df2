import { selectFoundLine } from '../../store/find-slice';
import { c, needsLine, PAGE } from '../command';

const noLine = needsLine(selectFoundLine);

/** The find screen (`:find TEXT`): matches from every profile, grouped by profile. */
export const FIND_COMMANDS = [
  c('find.down', ['down', 'j'], 'find', 'Navigate', 'Next match', (s) => s.moveFindCursor(1)),
  c('find.up', ['up', 'k'], 'find', 'Navigate', 'Previous match', (s) => s.moveFindCursor(-1)),
  c('find.pageDown', ['pagedown'], 'find', 'Navigate', 'A page down', (s) => s.moveFindCursor(PAGE)),
  c('find.pageUp', ['pageup'], 'find', 'Navigate', 'A page up', (s) => s.moveFindCursor(-PAGE)),
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

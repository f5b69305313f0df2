import type { AppState } from '../../store/app-store';
import { areaScrollsNothing, pageRows } from '../../store/ui-slice';
import { c, type Disabled } from '../command';

const total = (s: AppState) => s.userRunRows;
/** The scroll keys move what is in view only when some of the output is in view and some is not
 *  (counted as drawn for the text it holds now, at the size now). */
const scrolls: Disabled = (s) => areaScrollsNothing(s, 'output', total(s), 'row');

/** The pager of a command of yours (the config's `commands`): its question, then its output. */
export const OUTPUT_COMMANDS = [
  c('output.run', ['enter'], 'output', 'Line', 'Run it', (s) => s.confirmUserRun(), {
    footer: true,
    confirms: true,
    disabled: (s) => (s.userRun?.phase === 'confirm' ? null : 'Nothing to run'),
  }),
  c(
    'output.close',
    ['escape', 'q'],
    'output',
    'Navigate',
    'Close (stops a run still going)',
    (s) => s.closeUserRun(),
    {
      footer: true,
    },
  ),
  c(
    'output.down',
    ['down', 'j'],
    'output',
    'Navigate',
    'Scroll down',
    (s) => s.scrollBy('output', 1, total(s)),
    {
      disabled: scrolls,
    },
  ),
  c('output.up', ['up', 'k'], 'output', 'Navigate', 'Scroll up', (s) => s.scrollBy('output', -1, total(s)), {
    disabled: scrolls,
  }),
  c(
    'output.pageDown',
    ['pagedown', 'space'],
    'output',
    'Navigate',
    'Scroll a page down',
    (s) => s.scrollBy('output', pageRows(s, 'output'), total(s)),
    { footer: true, disabled: scrolls },
  ),
  c(
    'output.pageUp',
    ['pageup'],
    'output',
    'Navigate',
    'Scroll a page up',
    (s) => s.scrollBy('output', -pageRows(s, 'output'), total(s)),
    { disabled: scrolls },
  ),
] as const;

import { c, PAGE } from '../command';

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
  c('output.down', ['down', 'j'], 'output', 'Navigate', 'Scroll down', (s) => s.scrollUserRun(1)),
  c('output.up', ['up', 'k'], 'output', 'Navigate', 'Scroll up', (s) => s.scrollUserRun(-1)),
  c(
    'output.pageDown',
    ['pagedown', 'space'],
    'output',
    'Navigate',
    'Scroll a page down',
    (s) => s.scrollUserRun(PAGE),
    {
      footer: true,
    },
  ),
  c('output.pageUp', ['pageup'], 'output', 'Navigate', 'Scroll a page up', (s) => s.scrollUserRun(-PAGE)),
] as const;

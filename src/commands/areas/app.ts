import { areaScrollsNothing, pageRows } from '../../store/ui-slice';
import { c, type Disabled, FOOTER } from '../command';
import { helpRows, keyNamed, said, wrapped } from '../hints';
import { completePaletteInput, runPalette } from '../palette';

/** The journal's and help's scroll keys move what is in view only when some of it is in view and some
 *  is not (counted as drawn for what they show now: a frame does not offer them on the last count). */
const journalScrolls: Disabled = (s) => areaScrollsNothing(s, 'journal', s.journalEntries.length, 'entry');
const helpScrolls: Disabled = (s) => areaScrollsNothing(s, 'help', helpRows(s), 'key');

/** Everywhere, and the app's own views: help, journal, profiles, palette. */
export const APP_COMMANDS = [
  c(
    'app.help',
    ['?'],
    ['global', 'detail'],
    'App',
    'Help',
    (s) => {
      s.pushView({ id: 'help' });
      s.scrollToStart('help');
    },
    { footer: FOOTER.most },
  ),
  c('app.palette', [':'], 'global', 'App', 'Command palette', (s) => s.openPalette(), {
    footer: FOOTER.often,
  }),
  c('app.back', ['escape'], 'global', 'App', 'Close or back', (s) => s.back(false)),
  c(
    'app.backOrQuit',
    ['q'],
    'global',
    'App',
    'Back (quit from the first screen)',
    (s) => {
      if (s.back(true) !== 'armed') return;
      const again = said(keyNamed(s, 'app.backOrQuit'), (k) => `Press ${k} again to quit`) ?? 'Again to quit';
      s.notify(`${again}${wrapped(said(keyNamed(s, 'app.quit'), 'quits at once'))}`, 'info');
    },
    { footer: FOOTER.often },
  ),
  c('app.quit', ['ctrl+c'], 'global', 'App', 'Quit', (s) => {
    if (s.quitDuringJob() === 'armed')
      s.notify(
        `${said(keyNamed(s, 'app.quit'), 'again quits') ?? 'Again quits'}: the job stops after the requests in flight; resume it later`,
        'info',
      );
  }),
  // While the terminal is too small for the layout, only quitting works (no screen to act on).
  // (The sentence on screen says a running job asks twice; present/min-size.ts.)
  c('small.quit', ['q', 'ctrl+c'], 'small', 'App', 'Quit', (s) => {
    s.quitDuringJob();
  }),
  c(
    'app.refresh',
    ['r'],
    'global',
    'App',
    'Refresh (or retry after an error)',
    (s) => void s.refreshScreen(),
    {
      footer: true,
    },
  ),
  c('nav.account', ['1'], 'global', 'Navigate', 'Account summary', (s) => {
    s.navigate('account');
    void s.loadCounts();
    if (s.runway.status === 'idle') void s.loadRunway();
  }),
  c('nav.lines', ['2'], 'global', 'Navigate', 'Lines', (s) => s.navigate('lines')),
  c('nav.packages', ['3'], 'global', 'Navigate', 'Packages', (s) => s.navigate('packages')),
  c('nav.bouquets', ['4'], 'global', 'Navigate', 'Bouquets', (s) => s.navigate('bouquets')),
  c('nav.renewals', ['6'], 'global', 'Navigate', 'Renewals: expiring, expired lately, suspended', (s) => {
    s.navigate('renewals');
    // Kept a minute: coming back to the view does not walk the lists again.
    const r = s.renewals;
    if (r.status !== 'ready' || Date.now() - r.data.at > 60_000) void s.loadRenewals();
  }),
  c('nav.journal', ['5'], 'global', 'Navigate', 'Journal of changes', (s) => {
    s.navigate('journal');
    s.loadJournal();
    s.scrollToStart('journal');
  }),

  // Command palette
  c('palette.run', ['enter'], 'palette', 'Input', 'Run', (s, fx) => runPalette(s, fx), { footer: true }),
  c('palette.complete', ['tab'], 'palette', 'Input', 'Complete', (s) => completePaletteInput(s), {
    footer: true,
  }),
  c('palette.historyPrev', ['up'], 'palette', 'Input', 'Previous command', (s) => s.paletteHistoryStep(-1)),
  c('palette.historyNext', ['down'], 'palette', 'Input', 'Next command', (s) => s.paletteHistoryStep(1)),
  c('palette.close', ['escape'], 'palette', 'Input', 'Close', (s) => s.closeView('palette'), {
    footer: true,
  }),

  // Profiles (:profile)
  c('profiles.close', ['escape', 'enter'], 'profiles', 'App', 'Close', (s) => s.closeView('profiles'), {
    footer: true,
  }),
  c('profile.next', ['tab', 'down', 'up'], 'profileAdd', 'Input', 'Next field', (s) => s.profileFormNext(), {
    footer: true,
  }),
  c(
    'profile.submit',
    ['enter'],
    'profileAdd',
    'Input',
    'Check the account (GET /v1/me) and save',
    (s) => void s.submitProfileForm(),
    { footer: true },
  ),
  c('profile.cancel', ['escape'], 'profileAdd', 'Input', 'Cancel', (s) => s.closeProfileForm(), {
    footer: true,
  }),

  // Journal
  c(
    'journal.export',
    ['x'],
    'journal',
    'App',
    'Export the journal and the notes as CSV',
    (s) => s.exportJournal(),
    {
      footer: true,
    },
  ),
  c(
    'journal.allAccounts',
    ['a'],
    'journal',
    'App',
    'Every account, or this one only',
    (s) => {
      s.toggleJournalAccounts();
      s.scrollToStart('journal');
    },
    { footer: true },
  ),
  c(
    'journal.period',
    ['t'],
    'journal',
    'App',
    'Period: all, today, yesterday, last 7 days',
    (s) => {
      s.cycleJournalPeriod();
      s.scrollToStart('journal');
    },
    { footer: true },
  ),
  c(
    'journal.down',
    ['down', 'j'],
    'journal',
    'Navigate',
    'Scroll down',
    (s) => s.scrollBy('journal', 1, s.journalEntries.length),
    { disabled: journalScrolls },
  ),
  c(
    'journal.up',
    ['up', 'k'],
    'journal',
    'Navigate',
    'Scroll up',
    (s) => s.scrollBy('journal', -1, s.journalEntries.length),
    { disabled: journalScrolls },
  ),
  c(
    'journal.pageDown',
    ['pagedown'],
    'journal',
    'Navigate',
    'Scroll a page down',
    (s) => s.scrollBy('journal', pageRows(s, 'journal'), s.journalEntries.length),
    { footer: true, disabled: journalScrolls },
  ),
  c(
    'journal.pageUp',
    ['pageup'],
    'journal',
    'Navigate',
    'Scroll a page up',
    (s) => s.scrollBy('journal', -pageRows(s, 'journal'), s.journalEntries.length),
    { disabled: journalScrolls },
  ),

  // Help overlay
  // Back to the view help was opened over (a form keeps what was typed).
  c('help.close', ['escape', '?', 'q'], 'help', 'App', 'Close help', (s) => s.closeView('help'), {
    footer: true,
  }),
  c(
    'help.down',
    ['down', 'j'],
    'help',
    'Navigate',
    'Scroll down',
    (s) => s.scrollBy('help', 1, helpRows(s)),
    {
      disabled: helpScrolls,
    },
  ),
  c('help.up', ['up', 'k'], 'help', 'Navigate', 'Scroll up', (s) => s.scrollBy('help', -1, helpRows(s)), {
    disabled: helpScrolls,
  }),
  c(
    'help.pageDown',
    ['pagedown'],
    'help',
    'Navigate',
    'Scroll a page down',
    (s) => s.scrollBy('help', pageRows(s, 'help'), helpRows(s)),
    { footer: true, disabled: helpScrolls },
  ),
  c(
    'help.pageUp',
    ['pageup'],
    'help',
    'Navigate',
    'Scroll a page up',
    (s) => s.scrollBy('help', -pageRows(s, 'help'), helpRows(s)),
    { disabled: helpScrolls },
  ),
] as const;

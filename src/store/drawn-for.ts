/**
 * What each long list's count of rows in view is drawn for (ui-slice `drawn`): what it shows now,
 * from the state alone, so the hook that records a count (ui/use-page-rows.ts) and every reader of it
 * (page keys, scroll ends, the keys' offer) name it the same way without passing it around. A count
 * drawn for another (the last dialog's, another filter's) is no count.
 */
import { flashRowCount } from '../present/frame';
import type { AppState } from './app-store';
import type { ViewId } from './types';
import type { PagedArea } from './ui-slice';
import { isDialog, selectScreen } from './view-stack';

/** The state the lists' `drawnFor` is read from. */
export type DrawnForState = Pick<
  AppState,
  | 'bulk'
  | 'journalAllAccounts'
  | 'journalPeriod'
  | 'journalEntries'
  | 'views'
  | 'findText'
  | 'findProblem'
  | 'userRun'
  | 'userRunRows'
  | 'flash'
  | 'terminalSize'
  | 'spoken'
  | 'scroll'
  | 'drawn'
>;

/** The bulk dialog: the job and its phase (a job started with a screen reader says no line while it
 *  runs). */
const bulk = (s: DrawnForState): string => (s.bulk ? `${s.bulk.job.id}:${s.bulk.phase}` : '');

/** The journal: its accounts, its period and how many entries it holds (a reload that changed them);
 *  read aloud, also where it is scrolled to: an entry is a sentence that wraps, and the window holds as
 *  many as the longest of those from the offset fits (ui/screens/JournalScreen.tsx). */
const journal = (s: DrawnForState): string =>
  `${s.journalAllAccounts ? 'all' : 'one'}:${s.journalPeriod}:${s.journalEntries.length}${s.spoken ? `@${s.scroll.journal}` : ''}`;

/** The dialogs help was opened over, topmost first: it lists their keys before the screen's
 *  (commands/hints.ts `helpScopesOf`). */
export const dialogsUnderHelp = (s: Pick<AppState, 'views'>): ViewId[] =>
  s.views
    .filter((v) => isDialog(v) && v.id !== 'help')
    .map((v) => v.id)
    .reverse();

/** Help: the views it lists the keys of (the dialogs under it, then the screen): its scopes follow
 *  from them. */
const help = (s: DrawnForState): string => [...dialogsUnderHelp(s), selectScreen(s).id].join(' ');

/** The find screen: its text, and whether the line saying a profile was left out takes a row. */
const find = (s: DrawnForState): string => `${s.findProblem ? 'problem' : ''}:${s.findText}`;

/**
 * The output pager: which run it shows (a count of the last run's text is none for the next, even of
 * as many rows), and how many rows its text takes while they all fit in view: a run's output grows as
 * it runs. Once fewer rows are in view than its text takes, the window is full and stays so as the
 * text grows (it only grows within a run, and a resize or a flash row is judged apart): the rows in
 * view stay the window's, so a print keeps the count ('full') and the page keys stay offered, where
 * naming the length dropped them for a frame at each print.
 */
const output = (s: DrawnForState, inView: number | undefined): string =>
  `${s.userRun?.run ?? ''}:${inView !== undefined && inView < s.userRunRows ? 'full' : s.userRunRows}`;

const DRAWN_FOR: Record<PagedArea, (s: DrawnForState, inView: number | undefined) => string> = {
  bulk,
  journal,
  help,
  find,
  output,
  // What fits depends on the terminal alone.
  renewals: () => '',
  message: () => '',
};

/**
 * What `area`'s count of rows in view is drawn for now: what it shows, and the rows the flash takes
 * (a flash longer than the width takes a second row from the body, as a resize would: ui/App.tsx).
 * `inView` is the count it is judged with: the one being drawn (ui/use-page-rows.ts records it), else
 * the one stored (a reader asks whether it still holds); only the output pager's depends on it.
 */
export const drawnForOf = (
  s: DrawnForState,
  area: PagedArea,
  inView: number | undefined = s.drawn[area]?.rows,
): string =>
  `${DRAWN_FOR[area](s, inView)}|${s.terminalSize ? flashRowCount(s.flash, s.terminalSize.columns) : 1}`;

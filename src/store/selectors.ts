import type { Line, LineListItem } from '../api/contract';
import { type BulkJob, OPEN } from '../domain/bulk';
import { buildLinks, type Links } from '../domain/links';
import { leftToReview } from '../services/changes/fresh-lines';
import { openReason, openRefusal } from '../services/changes/open-lines';
import { toMarkAgain, unsentToMarkAgain } from '../services/changes/recovery';
import type { AppState } from './app-store';
import { lookUpAgain as lookUpAgainOf, type MarkAgain } from './changes/changes-slice';

export {
  isUnjudged,
  selectBalance,
  selectBalanceShown,
  selectBalanceStale,
  selectBalanceToJudge,
} from './balance-selectors';

import { selectCurrentLine } from './lines-slice';
import { selectRenewalsPlan } from './renewals-slice';
import { loaded } from './types';
import { selectScreen } from './view-stack';

/** The line of the detail screen, fresher from the current page when it is there. */
export const selectDetailLine = (s: AppState) => {
  const top = selectScreen(s);
  if (top.id !== 'detail') return undefined;
  return loaded(s.lines)?.lines.find((l) => l.id === top.line.id) ?? top.line;
};

/** The detail line's MAC address and parental code, from the line itself or the last single-line
 *  response that carried them; undefined when no response has (list items omit both). */
export const selectDetailExtras = (s: AppState) => {
  const line = selectDetailLine(s);
  if (!line) return undefined;
  return s.lineExtras.get(line.id) ?? ('macaddress' in line ? (line as Line) : undefined);
};

/**
 * The line a change applies to: the detail screen's, or the one under the cursor. None on the marks
 * screen: it shows the marked lines only, and a change there is their bulk job; with nothing marked,
 * the browser's cursor line (not on screen) is no one's target.
 */
export const selectTargetLine = (s: AppState) => {
  const screen = selectScreen(s).id;
  if (screen === 'marks') return undefined;
  return selectDetailLine(s) ?? (screen === 'renewals' ? selectRenewalLine(s) : selectCurrentLine(s));
};

/**
 * When the line a change applies to was read from the server (epoch ms): its row's page (or the
 * reply that replaced the row), or the detail screen's line as it was opened or refreshed; undefined
 * when not known (a renewals row, a line found by its note): the change service then reads it again.
 */
export const selectTargetReadAt = (s: AppState): number | undefined => {
  const line = selectTargetLine(s);
  if (!line) return undefined;
  if (loaded(s.lines)?.lines.includes(line as LineListItem)) return s.linesReadAt.get(line.id);
  const top = selectScreen(s);
  return top.id === 'detail' && top.line === line ? top.readAt : undefined;
};

/** The line under the renewals view's cursor. */
export const selectRenewalLine = (s: AppState) => selectRenewalsPlan(s)?.rows[s.renewalsCursor]?.line;

/** With lines marked, a line change in the browser or the marks view acts on every marked line. */
export const isBulkMode = (s: AppState) => s.marked.size > 0 && selectScreen(s).id !== 'detail';

/** The note kept on this machine for a line, if any. */
export const selectNote = (s: Pick<AppState, 'lineNotes'>, lineId: string | undefined) =>
  lineId === undefined ? undefined : s.lineNotes.get(lineId);

/** The note of the detail screen's line. */
export const selectDetailNote = (s: AppState) => selectNote(s, selectDetailLine(s)?.id);

/**
 * The refusal of a new change to a line whose earlier change is not settled here: the key's disabled
 * reason and a script's refusal say the same.
 */
export const unsettledRefusal = (s: Pick<AppState, 'unsettled' | 'held'>, lineId: string): string | null =>
  openRefusal(s, lineId)?.message ?? null;

/** Why no new change is offered for a line whose earlier change is not settled here, in words. */
export const unsettledReason = (s: Pick<AppState, 'unsettled' | 'held'>, lineId: string): string | null =>
  openReason(s, lineId);

const linksKept = new WeakMap<
  LineListItem,
  { readonly account: unknown; readonly templates: unknown; readonly links: Links }
>();

/**
 * A line's connection links (domain/links.ts) with the account as loaded and this service's
 * templates: the one path the detail, the copy keys and your commands' environment take. The same
 * object while the line, the account and the templates are (a screen may select it).
 */
export function selectLinksOf(s: AppState, line: LineListItem): Links {
  const account = loaded(s.account) ?? null;
  const kept = linksKept.get(line);
  if (kept && kept.account === account && kept.templates === s.linkTemplates) return kept.links;
  const links = buildLinks(line, account, s.linkTemplates);
  linksKept.set(line, { account, templates: s.linkTemplates, links });
  return links;
}

/** How many of some lines stand at each point of marking again (a line not in the marks: looking). */
export type MarkCounts = Readonly<Record<MarkAgain, number>>;

/** No line counted at any state: a count to add to (a fresh one each call). */
export const noMarks = (): Record<MarkAgain, number> => ({
  looking: 0,
  marked: 0,
  'not found': 0,
  'not looked up': 0,
  'not readable': 0,
  'not identified': 0,
  'lookup failed': 0,
});

/** One job of the resume offer, counted: its lines by state, and where marking again stands. */
export interface JobCounts {
  readonly done: number;
  readonly failed: number;
  /** Outcome unknown (or still sending when the app stopped): what a check again checks. */
  readonly open: number;
  readonly skipped: number;
  readonly cancelled: number;
  /** The lines it left marked to review (changed since marked), by where marking them again stands. */
  readonly review: MarkCounts;
  /** Its lines never sent that are marked again (not those being created), likewise. */
  readonly unsent: MarkCounts;
}

/** Sums a count's states (all of them: the lines counted). */
export const markTotal = (c: MarkCounts): number => Object.values(c).reduce((n, k) => n + k, 0);

/** One job of the offer counted, in one pass over its lines (`marks`: the offer's `markedAgain`). */
export function jobCounts(job: BulkJob, marks: ReadonlyMap<string, MarkAgain>): JobCounts {
  let done = 0;
  let failed = 0;
  let open = 0;
  let skipped = 0;
  let cancelled = 0;
  const review = noMarks();
  const unsent = noMarks();
  for (const l of job.lines) {
    if (l.state === 'done') done++;
    else if (l.state === 'failed') failed++;
    else if (l.state === 'skipped') skipped++;
    else if (l.state === 'cancelled') cancelled++;
    else if (OPEN.has(l.state)) open++;
    if (leftToReview(l)) review[marks.get(l.id) ?? 'looking']++;
    else if (unsentToMarkAgain(l)) unsent[marks.get(l.id) ?? 'looking']++;
  }
  return { done, failed, open, skipped, cancelled, review, unsent };
}

/** The resume offer counted: each job (in the offer's order), and what a check again would act on. */
interface OfferCounts {
  readonly jobs: readonly JobCounts[];
  /** Lines whose outcome is unknown, in all its jobs: a check again checks them. */
  readonly open: number;
  /** The offer's lines whose lookup a check again tries again (the lookup at start did not reach
   *  them, could not read them, or failed), by why. */
  readonly lookUpAgain: MarkCounts;
  /** Their sum: resume.recheck is offered for them too. */
  readonly toLookUpAgain: number;
}

/** The last `selectOfferCounts`, with what it was counted from. */
let countsKept: {
  recovery: AppState['recovery'];
  markedAgain: AppState['markedAgain'];
  counts: OfferCounts;
} | null = null;

/**
 * The resume offer counted (null: no offer), once per change of the offer or its marks, not on every
 * frame or footer (an interrupted job may have 100,000 lines): the dialog's rows, hints and notes and
 * resume.recheck's rule read it.
 */
export const selectOfferCounts = (s: Pick<AppState, 'recovery' | 'markedAgain'>): OfferCounts | null => {
  if (!s.recovery) return null;
  if (countsKept?.recovery === s.recovery && countsKept.markedAgain === s.markedAgain)
    return countsKept.counts;
  const jobs = s.recovery.jobs.map((r) => jobCounts(r.job, s.markedAgain));
  const lookUpAgain = noMarks();
  for (const m of s.markedAgain.values()) if (lookUpAgainOf(m)) lookUpAgain[m]++;
  const counts: OfferCounts = {
    jobs,
    open: jobs.reduce((n, c) => n + c.open, 0),
    lookUpAgain,
    toLookUpAgain: markTotal(lookUpAgain),
  };
  countsKept = { recovery: s.recovery, markedAgain: s.markedAgain, counts };
  return counts;
};

/** The last count of `selectOfferStaysMarked`, with what it was counted from. */
let staysKept: { recovery: AppState['recovery']; marked: AppState['marked']; n: number } | null = null;

/**
 * The resume offer's lines to be marked again (never sent, or left marked to review) that are marked
 * now: what Esc leaves marked. From the marks as they are, so a line the user unmarked since, or one
 * not marked again (not found, not looked up), is not counted.
 */
export const selectOfferStaysMarked = (s: Pick<AppState, 'recovery' | 'marked'>): number => {
  if (!s.recovery || !s.marked.size) return 0;
  // Counted again only when the offer or the marks change, not on every change of the store (a key
  // pressed): an interrupted job may have 100,000 lines.
  if (staysKept?.recovery === s.recovery && staysKept.marked === s.marked) return staysKept.n;
  let n = 0;
  for (const id of toMarkAgain(s.recovery.jobs)) if (s.marked.has(id)) n++;
  staysKept = { recovery: s.recovery, marked: s.marked, n };
  return n;
};

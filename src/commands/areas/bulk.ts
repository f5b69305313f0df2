import { retryable, SPENDS } from '../../domain/bulk';
import type { AppState } from '../../store/app-store';
import { bulkBalance, bulkRefusal } from '../../store/bulk-slice';
import { selectOfferCounts } from '../../store/selectors';
import { areaScrollsNothing, pageRows } from '../../store/ui-slice';
import { c, type Disabled, shownWhole } from '../command';
import { keyNamed, said } from '../hints';

const inPreview = (s: AppState) => s.bulk?.phase === 'preview';
const adjustable: Disabled = (s) =>
  inPreview(s) && (s.bulk?.job.op === 'extend' || s.bulk?.job.op === 'upgrade')
    ? null
    : 'Nothing to adjust now';
const rows = (s: AppState) => s.bulk?.job.lines.length ?? 0;
/** The scroll keys move what is in view only when some lines are in view and some are not (the
 *  dialog says how many are: none when it is too small to show them, or a screen reader hears them
 *  when the job ends). */
const scrolls: Disabled = (s) => areaScrollsNothing(s, 'bulk', rows(s), 'line');
const checking = (s: AppState) => (s.recovery?.checking ? 'Checking with the server first' : null);

/**
 * Reading the balance again, from the preview (the global refresh key does not reach a dialog):
 * offered only while the balance a job that spends is judged against is not known and no read of
 * it is on its way (the preview says "reading the balance…" then).
 */
const balanceToRead: Disabled = (s) =>
  !inPreview(s) || !s.bulk || !SPENDS.has(s.bulk.job.op)
    ? 'Only in the preview of a job that spends'
    : bulkBalance(s) !== undefined
      ? 'The balance is known'
      : s.account.status === 'loading'
        ? 'Reading the balance now'
        : null;

/**
 * Why the preview cannot start now, said with the key that helps where there is one (over the
 * balance: the key that picks only the affordable ones; the balance not known: the key that reads it
 * again, or that it is being read); null when Enter starts the job.
 */
export function bulkRefusedText(s: AppState): string | null {
  const r = s.bulk ? bulkRefusal(s.bulk, bulkBalance(s)) : null;
  const helps =
    r?.code === 'totalExceeds'
      ? said(keyNamed(s, 'bulk.affordable'), 'picks only the affordable ones')
      : r?.code === 'balanceUnknown'
        ? (said(keyNamed(s, 'bulk.readBalance'), 'reads it again') ?? 'reading the balance…')
        : null;
  return r && helps ? `${r.message}: ${helps}` : (r?.message ?? null);
}

/** A bulk job over the marked lines, and, at start, the changes and jobs left open (checked first). */
export const BULK_COMMANDS = [
  c('bulk.start', ['enter'], 'bulk', 'Line', 'Start the job', (s) => void s.bulkStart(), {
    footer: true,
    danger: true,
    confirms: true,
    // Offered only when it starts the job: not while the preview refuses it (its hint says why).
    disabled: (s) =>
      !inPreview(s) || !s.bulk ? 'The job has started' : (bulkRefusedText(s) ?? shownWhole(s)),
  }),
  c('bulk.close', ['escape'], 'bulk', 'Line', 'Close (cancel is the default)', (s) => s.bulkClose(), {
    footer: true,
    // Annotated: the hint names another command of the table this table's type is built from.
    disabled: (s): string | null =>
      s.bulk?.phase !== 'running'
        ? null
        : s.bulk.checking
          ? 'Its lines are being checked again: this closes once the check ends'
          : `The job is running: ${said(keyNamed(s, 'bulk.cancel'), 'cancels it first') ?? 'cancel it first'}`,
  }),
  c('bulk.decrease', ['left'], 'bulk', 'Line', 'Fewer months or connections', (s) => s.bulkAdjust(-1), {
    footer: true,
    disabled: adjustable,
  }),
  c('bulk.increase', ['right'], 'bulk', 'Line', 'More months or connections', (s) => s.bulkAdjust(1), {
    footer: true,
    disabled: adjustable,
  }),
  c(
    'bulk.affordable',
    ['a'],
    'bulk',
    'Line',
    'Only the affordable ones (on/off)',
    (s) => s.bulkToggleAffordable(),
    {
      footer: true,
      // Nothing to afford in a job that spends nothing (suspend, unsuspend, delete). In a delete's
      // preview `a` is typed into the count anyway: no footer offers it there (commands/text-takes.ts `textTakes`).
      disabled: (s) =>
        !inPreview(s)
          ? 'Only before the job starts'
          : s.bulk && !SPENDS.has(s.bulk.job.op)
            ? 'The job spends nothing'
            : null,
    },
  ),
  c(
    'bulk.readBalance',
    ['b'],
    'bulk',
    'Line',
    'Read the balance again (when it is not known)',
    (s) => void s.loadAccount(),
    { footer: true, disabled: balanceToRead },
  ),
  c(
    'bulk.cancel',
    ['c'],
    'bulk',
    'Line',
    'Cancel: stop scheduling, let requests in flight finish',
    (s) => s.bulkCancel(),
    {
      footer: true,
      disabled: (s) =>
        s.bulk?.phase !== 'running'
          ? 'Only while the job runs'
          : s.bulk.checking
            ? 'A check sends nothing: there is nothing to cancel'
            : null,
    },
  ),
  c(
    'bulk.retry',
    ['f'],
    'bulk',
    'Line',
    'Retry the failed ones (quoted again first)',
    (s) => s.bulkRetryFailed(),
    {
      footer: true,
      disabled: (s) =>
        s.bulk?.phase === 'done' && s.bulk.job.lines.some(retryable)
          ? null
          : 'No failed or cancelled lines to retry',
    },
  ),
  c('bulk.export', ['x'], 'bulk', 'Line', 'Export the results as CSV and JSON', (s) => s.bulkExport(), {
    footer: true,
  }),
  c(
    'bulk.recheck',
    ['r'],
    'bulk',
    'Line',
    'Check the unknown lines with the server again',
    (s) => void s.bulkRecheck(),
    {
      footer: true,
      disabled: (s) =>
        s.bulk?.phase === 'done' && s.bulk.job.lines.some((l) => l.state === 'unknown')
          ? null
          : 'No unknown lines to check',
    },
  ),
  c(
    'bulk.down',
    ['down'],
    'bulk',
    'Navigate',
    'Scroll the lines down',
    (s) => s.scrollBy('bulk', 1, rows(s)),
    {
      disabled: scrolls,
    },
  ),
  c('bulk.up', ['up'], 'bulk', 'Navigate', 'Scroll the lines up', (s) => s.scrollBy('bulk', -1, rows(s)), {
    disabled: scrolls,
  }),
  c(
    'bulk.pageDown',
    ['pagedown'],
    'bulk',
    'Navigate',
    'Scroll the lines a page down',
    (s) => s.scrollBy('bulk', pageRows(s, 'bulk'), rows(s)),
    { footer: true, disabled: scrolls },
  ),
  c(
    'bulk.pageUp',
    ['pageup'],
    'bulk',
    'Navigate',
    'Scroll the lines a page up',
    (s) => s.scrollBy('bulk', -pageRows(s, 'bulk'), rows(s)),
    { disabled: scrolls },
  ),

  // At start: changes left open in the intent log (checked first), an interrupted job to resume
  // Enter resumes one job (the first with lines never sent); the offer's other jobs are offered again
  // once its results are closed (at the next start if linedesk stops first).
  c(
    'resume.yes',
    ['enter'],
    'resume',
    'Line',
    'Resume the lines never sent of one job',
    (s) => void s.resumeJob(),
    {
      footer: true,
      confirms: true,
      disabled: (s) =>
        checking(s) ??
        (s.recovery?.jobs.some((r) => r.unsent > 0)
          ? shownWhole(s)
          : 'Nothing to resume: no line was left unsent'),
    },
  ),
  c(
    'resume.recheck',
    ['r'],
    'resume',
    'Line',
    'Check again: the unknown ones with the server, the lines not looked up',
    (s) => void s.recheckRecovery(),
    {
      footer: true,
      disabled: (s) =>
        checking(s) ??
        // What a check again acts on: open outcomes (checked again), lines not looked up (looked up);
        // counted once per change of the offer or its marks, not at every footer.
        (selectOfferCounts(s)?.open || selectOfferCounts(s)?.toLookUpAgain
          ? null
          : 'Nothing to check again: no unknown outcome, every line looked up'),
    },
  ),
  c(
    'resume.no',
    ['escape'],
    'resume',
    'Line',
    'Close (a job with unknown outcomes is kept: its unsent lines are offered again at the next start)',
    (s) => s.dismissRecovery(),
    { footer: true, disabled: checking },
  ),
] as const;

import { type CommandId, helpScopes, keyHintText, visibleCommands } from '../keys/keymap';
import type { AppState } from '../store/app-store';
import { selectCurrentLine } from '../store/lines-slice';
import { loaded } from '../store/types';

/** How a copy went: `via` says where the text went, `why` why it could not go anywhere. */
export type CopyResult =
  | { readonly ok: true; readonly via: string }
  | { readonly ok: false; readonly why: string };

export interface UiEffects {
  /** Copies to the clipboard where the user is (app/clipboard.ts); says how, or why it could not. */
  readonly copy: (text: string) => Promise<CopyResult>;
}

/** Copies and says what really happened: never "Copied" when nothing could be. */
const copyAndSay = (s: AppState, fx: UiEffects, text: string, what: string) =>
  void fx
    .copy(text)
    .then((r) =>
      r.ok
        ? s.notify(`Copied ${what} to ${r.via}`, 'success')
        : s.notify(`Nothing copied: ${r.why}`, 'error'),
    );

type Handler = (s: AppState, fx: UiEffects) => void;

/** With lines marked, e/u/s/d in the browser or the marks view act on every marked line. */
const bulkMode = (s: AppState) => s.marked.size > 0 && s.screens.at(-1)?.id !== 'detail';

/** The line a change applies to: the detail screen's, or the one under the cursor. */
export const targetLine = (s: AppState) => selectDetailLine(s) ?? selectCurrentLine(s);

/** The line of the detail screen, fresher from the current page when it is there. */
export const selectDetailLine = (s: AppState) => {
  const top = s.screens.at(-1);
  if (top?.id !== 'detail') return undefined;
  return s.page?.lines.find((l) => l.id === top.line.id) ?? top.line;
};

const copyFrom =
  (pick: (s: AppState) => { text: string; what: string } | null): Handler =>
  (s, fx) => {
    const item = pick(s);
    s.closeModal();
    if (!item) return s.notify('Nothing to copy', 'error');
    copyAndSay(s, fx, item.text, item.what);
  };

const fromLine = (what: string, text: (l: { id: string; username: string; password: string }) => string) =>
  copyFrom((s) => {
    const l = selectDetailLine(s);
    return l ? { text: text(l), what } : null;
  });

/** Rows a page key scrolls a long list by. */
const PAGE = 10;
const helpRows = (s: AppState) =>
  helpScopes(s.screens.at(-1)!.id).reduce((n, scope) => n + 1 + visibleCommands(scope).length, 0);

/** What each command does. A test checks every command of the keymap has one. */
export const HANDLERS: Record<CommandId, Handler> = {
  'app.help': (s) => {
    s.openModal({ kind: 'help' });
    s.scrollBy('help', Number.NEGATIVE_INFINITY, 1);
  },
  'app.palette': (s) => s.openPalette(),
  'app.back': (s) => s.back(false),
  'app.backOrQuit': (s) => {
    if (s.back(true) === 'armed')
      s.notify(
        `Press ${keyHintText('app.backOrQuit')} again to quit (${keyHintText('app.quit')} quits at once)`,
        'info',
      );
  },
  'app.quit': (s) => s.quit(),
  'app.refresh': (s) => void s.refreshScreen(),
  'nav.account': (s) => {
    s.navigate('account');
    void s.loadCounts();
  },
  'nav.lines': (s) => s.navigate('lines'),
  'nav.packages': (s) => s.navigate('packages'),
  'nav.bouquets': (s) => s.navigate('bouquets'),
  'nav.journal': (s) => {
    s.navigate('journal');
    s.loadJournal();
    s.scrollBy('journal', Number.NEGATIVE_INFINITY, 1);
  },

  'line.create': (s) => s.openForm(false),
  'line.trial': (s) => s.openForm(true),
  'line.extend': (s) =>
    bulkMode(s) ? s.openBulk('extend') : s.openAction({ op: 'extend', line: targetLine(s)! }),
  'line.upgrade': (s) =>
    bulkMode(s) ? s.openBulk('upgrade') : s.openAction({ op: 'upgrade', line: targetLine(s)! }),
  'line.unsuspend': (s) =>
    bulkMode(s) ? s.openBulk('unsuspend') : s.openAction({ op: 'unsuspend', line: targetLine(s)! }),
  'line.delete': (s) =>
    bulkMode(s) ? s.openBulk('delete') : s.openAction({ op: 'delete', line: targetLine(s)! }),

  'lines.marks': (s) => s.openMarks(),
  'marks.down': (s) => s.moveMarksCursor(1),
  'marks.up': (s) => s.moveMarksCursor(-1),
  'marks.unmark': (s) => {
    const id = [...s.marked.keys()][s.marksCursor];
    if (id) s.unmark(id);
  },
  'marks.clear': (s) => {
    s.clearMarks();
    s.notify('Every mark cleared', 'info');
  },

  'bulk.start': (s) => void s.bulkStart(),
  'bulk.close': (s) => s.bulkClose(),
  'bulk.decrease': (s) => s.bulkAdjust(-1),
  'bulk.increase': (s) => s.bulkAdjust(1),
  'bulk.affordable': (s) => s.bulkToggleAffordable(),
  'bulk.cancel': (s) => s.bulkCancel(),
  'bulk.retry': (s) => s.bulkRetryFailed(),
  'bulk.export': (s) => s.bulkExport(),
  'resume.yes': (s) => void s.resumeJob(),
  'resume.no': (s) => s.dismissRecovery(),
  'resume.recheck': (s) => void s.recoverIntents(),
  'bulk.recheck': (s) => void s.bulkRecheck(),

  'form.next': (s) => s.moveFocus(1),
  'form.prev': (s) => s.moveFocus(-1),
  'form.decrease': (s) => s.adjustField(-1),
  'form.increase': (s) => s.adjustField(1),
  'form.toggle': (s) => s.toggleField(),
  'form.generate': (s) => s.generateField(),
  'form.submit': (s) => s.submitForm(),
  'form.cancel': (s) => s.closeForm(),

  'picker.down': (s) => s.pickerMove(1),
  'picker.up': (s) => s.pickerMove(-1),
  'picker.toggle': (s) => s.pickerToggle(),
  'picker.tab': (s) => s.pickerSwitchTab(),
  'picker.all': (s) => s.pickerSetAll(true),
  'picker.none': (s) => s.pickerSetAll(false),
  'picker.same': (s) => s.pickerSameAsLine(),
  'picker.done': (s) => s.pickerClose(true),
  'picker.cancel': (s) => s.pickerClose(false),

  'action.confirm': (s) => void s.confirmAction(),
  'action.cancel': (s) => s.closeAction(),
  'action.decrease': (s) => s.adjustAction(-1),
  'action.increase': (s) => s.adjustAction(1),
  'action.copy': (s, fx) => {
    const line = s.action?.result?.line;
    if (!line) return;
    copyAndSay(s, fx, `${line.username}\n${line.password}`, 'the new username and password');
  },
  'action.recheck': (s) => void s.recheckAction(),

  'journal.export': (s) => s.exportJournal(),
  'journal.down': (s) => s.scrollBy('journal', 1, s.journalEntries.length),
  'journal.up': (s) => s.scrollBy('journal', -1, s.journalEntries.length),
  'journal.pageDown': (s) => s.scrollBy('journal', PAGE, s.journalEntries.length),
  'journal.pageUp': (s) => s.scrollBy('journal', -PAGE, s.journalEntries.length),
  'help.down': (s) => s.scrollBy('help', 1, helpRows(s)),
  'help.up': (s) => s.scrollBy('help', -1, helpRows(s)),
  'help.pageDown': (s) => s.scrollBy('help', PAGE, helpRows(s)),
  'help.pageUp': (s) => s.scrollBy('help', -PAGE, helpRows(s)),
  'bulk.down': (s) => s.scrollBy('bulk', 1, s.bulk?.job.lines.length ?? 0),
  'bulk.up': (s) => s.scrollBy('bulk', -1, s.bulk?.job.lines.length ?? 0),
  'bulk.pageDown': (s) => s.scrollBy('bulk', PAGE, s.bulk?.job.lines.length ?? 0),
  'bulk.pageUp': (s) => s.scrollBy('bulk', -PAGE, s.bulk?.job.lines.length ?? 0),
  'profiles.close': (s) => s.closeModal(),
  'profile.next': (s) => s.profileFormNext(),
  'profile.submit': (s) => void s.submitProfileForm(),
  'profile.cancel': (s) => s.closeProfileForm(),

  'lines.down': (s) => s.moveCursor(1),
  'lines.up': (s) => s.moveCursor(-1),
  'lines.pageNext': (s) => s.pageNext(),
  'lines.pagePrev': (s) => s.pagePrev(),
  'lines.first': (s) => s.firstLine(),
  'lines.last': (s) => s.lastLine(),
  'lines.open': (s) => {
    const line = selectCurrentLine(s);
    if (line) s.openDetail(line);
  },
  'lines.search': (s) => s.openSearch(),
  'lines.filterStatus': (s) => s.cycleStatus(),
  'lines.filterType': (s) => s.cycleType(),
  'lines.sortColumn': (s) => s.cycleSort(),
  'lines.sortOrder': (s) => s.flipOrder(),
  'lines.mark': (s) => s.toggleMark(),
  'lines.markPage': (s) => s.togglePage(),
  'lines.markAll': (s) => void s.markAllMatching(),

  'detail.password': (s) => s.togglePassword(),
  'detail.copy': (s) => {
    if (selectDetailLine(s)) s.openModal({ kind: 'copy' });
  },
  'copy.credentials': fromLine('username and password', (l) => `${l.username}\n${l.password}`),
  'copy.username': fromLine('the username', (l) => l.username),
  'copy.password': fromLine('the password', (l) => l.password),
  'copy.id': fromLine("the line's id", (l) => l.id),
  'copy.portal': copyFrom((s) => {
    const url = loaded(s.account)?.server_information.mag_portal_url;
    return url ? { text: url, what: 'the MAG portal URL' } : null;
  }),
  'copy.close': (s) => s.closeModal(),

  'search.apply': (s) => s.applySearch(),
  'search.clear': (s) => s.clearSearch(),

  'palette.run': (s) => s.runPalette(),
  'palette.complete': (s) => s.completePaletteInput(),
  'palette.historyPrev': (s) => s.paletteHistoryStep(-1),
  'palette.historyNext': (s) => s.paletteHistoryStep(1),
  'palette.close': (s) => s.closeModal(),

  'help.close': (s) => s.closeModal(),
};

const READ_ONLY = 'Read-only mode (--read-only): changes are disabled';
const isAdjustable = (s: AppState) => s.bulk?.job.op === 'extend' || s.bulk?.job.op === 'upgrade';
/** Disabled reasons shared by every change to an existing line. */
const lineChange =
  (extra?: (line: NonNullable<ReturnType<typeof targetLine>>) => string | null) => (s: AppState) => {
    if (s.readOnly) return READ_ONLY;
    // With lines marked the change is a bulk job: its preview says, line by line, what it skips.
    if (bulkMode(s)) return null;
    const line = targetLine(s);
    if (!line) return 'No line under the cursor';
    if (s.unsettled.has(line.id))
      return 'An earlier change to this line has an unknown outcome: it is checked first (restart, or r in its dialog)';
    return extra?.(line) ?? null;
  };

/** Why a command cannot run now (shown in the flash line), or null when it can. */
export const DISABLED: Partial<Record<CommandId, (s: AppState) => string | null>> = {
  'line.create': (s) => (s.readOnly ? READ_ONLY : null),
  'line.trial': (s) => (s.readOnly ? READ_ONLY : null),
  'line.extend': lineChange((l) => (l.is_trial ? 'Trial lines cannot be extended' : null)),
  'line.upgrade': lineChange((l) =>
    l.is_trial ? 'Trial lines have one connection: nothing to change' : null,
  ),
  'line.unsuspend': lineChange((l) => (l.enabled ? 'This line is not suspended' : null)),
  'line.delete': lineChange(),
  'action.confirm': (s) => (s.readOnly ? READ_ONLY : null),
  'action.copy': (s) => (s.action?.result?.line && s.action.phase === 'done' ? null : 'Nothing to copy yet'),
  'action.recheck': (s) => (s.action?.phase === 'unknown' ? null : 'Only after an unknown outcome'),
  'bulk.recheck': (s) =>
    s.bulk?.phase === 'done' && s.bulk.job.lines.some((l) => l.state === 'unknown')
      ? null
      : 'No unknown lines to check',
  'resume.yes': (s) =>
    s.recovery?.checking
      ? 'Checking with the server first'
      : s.recovery?.jobs.some((r) => r.unsent > 0)
        ? null
        : 'Nothing to resume: no line was left unsent',
  'resume.recheck': (s) =>
    !s.recovery?.checking && s.recovery?.jobs.some((r) => r.job.lines.some((l) => l.state === 'unknown'))
      ? null
      : 'No unknown outcome to check',
  'resume.no': (s) => (s.recovery?.checking ? 'Checking with the server first' : null),
  'action.decrease': (s) =>
    s.action?.op === 'extend' || s.action?.op === 'upgrade' ? null : 'Nothing to adjust here',
  'action.increase': (s) =>
    s.action?.op === 'extend' || s.action?.op === 'upgrade' ? null : 'Nothing to adjust here',
  'lines.open': (s) => (selectCurrentLine(s) ? null : 'No line under the cursor'),
  // Marks exist for changes to many lines at once: nothing to mark for in read-only mode.
  'lines.mark': (s) => (s.readOnly ? READ_ONLY : selectCurrentLine(s) ? null : 'No line under the cursor'),
  'lines.markPage': (s) => (s.readOnly ? READ_ONLY : null),
  'lines.markAll': (s) => (s.readOnly ? READ_ONLY : null),
  'lines.marks': (s) => (s.readOnly ? READ_ONLY : null),
  'bulk.start': (s) => (s.bulk?.phase === 'preview' ? null : 'The job has started'),
  'bulk.decrease': (s) => (s.bulk?.phase === 'preview' && isAdjustable(s) ? null : 'Nothing to adjust now'),
  'bulk.increase': (s) => (s.bulk?.phase === 'preview' && isAdjustable(s) ? null : 'Nothing to adjust now'),
  'bulk.affordable': (s) => (s.bulk?.phase === 'preview' ? null : 'Only before the job starts'),
  'bulk.cancel': (s) => (s.bulk?.phase === 'running' ? null : 'Only while the job runs'),
  'bulk.retry': (s) =>
    s.bulk?.phase === 'done' &&
    s.bulk.job.lines.some((l) => (l.state === 'failed' && l.provenNotApplied) || l.state === 'cancelled')
      ? null
      : 'No failed or cancelled lines to retry',
  'bulk.close': (s) =>
    s.bulk?.phase === 'running' ? `The job is running: ${keyHintText('bulk.cancel')} cancels it first` : null,
  'lines.pageNext': (s) => (s.page && s.page.nextOffset === null ? 'This is the last page' : null),
  'lines.pagePrev': (s) => (s.page && s.page.previousOffset === null ? 'This is the first page' : null),
};

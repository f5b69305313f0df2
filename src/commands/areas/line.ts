import type { LineListItem } from '../../api/contract';
import { lineRule } from '../../domain/change-rules';
import type { Months } from '../../domain/steps';
import type { AppState } from '../../store/app-store';
import { isBulkMode, selectTargetLine, selectTargetReadAt, unsettledRefusal } from '../../store/selectors';
import { selectScreen } from '../../store/view-stack';
import { c, type Disabled, FOOTER, needsLine, READ_ONLY, type Run, shownWhole, writes } from '../command';

/** Copies and says what really happened: never "Copied" when nothing could be. */
export const copyAndSay: (what: string, text: string) => Run = (what, text) => (s, fx) =>
  void fx
    .copy(text)
    .then((r) =>
      r.ok
        ? s.notify(`Copied ${what} to ${r.via}`, 'success')
        : s.notify(`Nothing copied: ${r.why}`, 'error'),
    );

const copyFrom =
  (pick: (s: AppState) => { text: string; what: string } | null): Run =>
  (s, fx) => {
    const item = pick(s);
    s.closeView('copy');
    if (!item) return s.notify('Nothing to copy', 'error');
    copyAndSay(item.what, item.text)(s, fx);
  };

const fromLine = (what: string, text: (l: { id: string; username: string; password: string }) => string) =>
  copyFrom((s) => {
    const l = selectTargetLine(s);
    return l ? { text: text(l), what } : null;
  });

const hasLine = needsLine(selectTargetLine);

/** Why a change to an existing line cannot start; with lines marked it is a bulk job, whose preview
 *  says line by line what it skips. */
const lineChange =
  (extra?: (line: LineListItem) => string | null): Disabled =>
  (s) => {
    if (s.readOnly) return READ_ONLY;
    if (isBulkMode(s)) return null;
    const line = selectTargetLine(s);
    if (!line)
      return selectScreen(s).id === 'marks'
        ? 'Nothing marked: mark lines in the browser'
        : 'No line under the cursor';
    const unsettled = unsettledRefusal(s, line.id);
    if (unsettled) return s.held.has(line.id) ? unsettled : `${unsettled} (restart, or r in its dialog)`;
    return extra?.(line) ?? null;
  };

/** One line's change, or a bulk job over the marks. */
export type LineOp = 'extend' | 'upgrade' | 'unsuspend' | 'delete';

/** Opens a change's dialog (never sends: the dialog and its confirm gate decide): the marked lines'
 *  bulk job, else the target line's; `params` where it starts (`:extend --months 3`). */
export const openChange = (
  s: AppState,
  op: LineOp,
  params: { months?: Months; connections?: number } = {},
): void =>
  isBulkMode(s)
    ? s.openBulk(op, undefined, params)
    : s.openAction({ op, line: selectTargetLine(s)!, readAt: selectTargetReadAt(s), ...params });

const change =
  (op: LineOp): Run =>
  (s) =>
    openChange(s, op);

const adjustable: Disabled = (s) =>
  s.action?.phase !== 'review'
    ? 'The change is no longer open to adjust'
    : s.action.op === 'extend' || s.action.op === 'upgrade'
      ? null
      : 'Nothing to adjust here';

/** Enter confirms only while the dialog is a review: never once the change was sent or is done. */
const confirmable: Disabled = (s) =>
  writes(s) ?? (s.action?.phase === 'review' ? shownWhole(s) : 'Nothing to confirm now');

/** New credentials exist only after a new line (create, trial) is done. */
const newCredentials: Disabled = (s) => {
  const a = s.action;
  return a?.phase === 'done' && a.result?.line && (a.op === 'create' || a.op === 'trial')
    ? null
    : 'No new credentials to copy';
};

/** Changes to a line: in the browser (the line under the cursor, or the marked lines when any), in
 *  the line detail (its line), and in the marks view (the marked lines); the detail; its copy menu;
 *  the confirm dialog every change goes through. */
export const LINE_COMMANDS = [
  c(
    'line.create',
    ['c'],
    ['lines', 'detail'],
    'Line',
    'New line (costs credits; confirmed first)',
    (s) => s.openForm(false),
    { danger: true, footer: true, disabled: writes },
  ),
  c('line.trial', ['C'], ['lines', 'detail'], 'Line', 'New trial line', (s) => s.openForm(true), {
    danger: true,
    disabled: writes,
  }),
  c(
    'line.extend',
    ['e'],
    ['lines', 'detail', 'marks', 'renewals'],
    'Line',
    'Extend (costs credits; confirmed first)',
    change('extend'),
    {
      danger: true,
      footer: FOOTER.often,
      disabled: lineChange((l) => lineRule('extend', l)),
    },
  ),
  c(
    'line.upgrade',
    ['u'],
    ['lines', 'detail', 'marks'],
    'Line',
    'Change connections (confirmed first)',
    change('upgrade'),
    {
      danger: true,
      footer: true,
      disabled: lineChange((l) => lineRule('upgrade', l)),
    },
  ),
  c(
    'line.unsuspend',
    ['s'],
    ['lines', 'detail', 'marks', 'renewals'],
    'Line',
    'Unsuspend',
    change('unsuspend'),
    {
      danger: true,
      footer: true,
      disabled: lineChange((l) => (l.enabled ? 'This line is not suspended' : null)),
    },
  ),
  c(
    'line.delete',
    ['d', 'delete'],
    ['lines', 'detail', 'marks'],
    'Line',
    'Delete (type the username to confirm)',
    change('delete'),
    { danger: true, footer: true, disabled: lineChange() },
  ),

  // Line detail
  c('detail.password', ['p'], 'detail', 'Line', 'Show or hide the password', (s) => s.togglePassword(), {
    footer: true,
  }),
  c(
    'detail.copy',
    ['y'],
    'detail',
    'Copy',
    'Copy… (credentials, username, password, id, connection links, a customer message)',
    (s) => s.pushView({ id: 'copy' }),
    { footer: FOOTER.most, disabled: hasLine },
  ),
  // The same menu for the line under the cursor; not in those footers, which are full already.
  c(
    'line.copy',
    ['y'],
    ['lines', 'renewals'],
    'Copy',
    'Copy… from the line under the cursor (credentials, a customer message…)',
    (s) => s.pushView({ id: 'copy' }),
    { disabled: hasLine },
  ),

  // Copy menu (OSC 52 over SSH; tmux's buffer inside tmux)
  c(
    'copy.credentials',
    ['c'],
    'copy',
    'Copy',
    'Copy username and password',
    fromLine('username and password', (l) => `${l.username}\n${l.password}`),
    { footer: true },
  ),
  c(
    'copy.username',
    ['u'],
    'copy',
    'Copy',
    'Copy the username',
    fromLine('the username', (l) => l.username),
    {
      footer: true,
    },
  ),
  c(
    'copy.password',
    ['p'],
    'copy',
    'Copy',
    'Copy the password',
    fromLine('the password', (l) => l.password),
    {
      footer: true,
    },
  ),
  c(
    'copy.id',
    ['i'],
    'copy',
    'Copy',
    "Copy the line's id",
    fromLine("the line's id", (l) => l.id),
    {
      footer: true,
    },
  ),

  // Confirm dialog of every change
  c(
    'action.confirm',
    ['enter'],
    'action',
    'Line',
    'Confirm (exactly one request)',
    (s) => void s.confirmAction(),
    { footer: true, danger: true, confirms: true, disabled: confirmable },
  ),
  c('action.cancel', ['escape'], 'action', 'Line', 'Back (cancel is the default)', (s) => s.closeAction(), {
    footer: true,
  }),
  c('action.decrease', ['left'], 'action', 'Line', 'Fewer months or connections', (s) => s.adjustAction(-1), {
    footer: true,
    disabled: adjustable,
  }),
  c('action.increase', ['right'], 'action', 'Line', 'More months or connections', (s) => s.adjustAction(1), {
    footer: true,
    disabled: adjustable,
  }),
  c(
    'action.copy',
    ['y'],
    'action',
    'Copy',
    'Copy the new credentials',
    (s, fx) => {
      const line = s.action?.result?.line;
      if (line) copyAndSay('the new username and password', `${line.username}\n${line.password}`)(s, fx);
    },
    { footer: true, disabled: newCredentials },
  ),
  c(
    'action.recheck',
    ['r'],
    'action',
    'Line',
    'Check the server again (unknown outcome)',
    (s) => void s.recheckAction(),
    {
      footer: true,
      disabled: (s) => (s.action?.phase === 'unknown' ? null : 'Only after an unknown outcome'),
    },
  ),
] as const;

/** The copy menu's last items, after the connection links (commands/areas/links.ts). */
export const COPY_END_COMMANDS = [
  c(
    'copy.message',
    ['t'],
    'copy',
    'Copy',
    'Copy a customer message…',
    (s) => {
      // The menu is done once an item is chosen: Esc from the picker goes back to the screen.
      const line = selectTargetLine(s);
      s.closeView('copy');
      if (line) s.openMessageCopy(line);
    },
    { footer: true },
  ),
  c('copy.close', ['escape'], 'copy', 'Copy', 'Cancel', (s) => s.closeView('copy'), { footer: true }),
] as const;

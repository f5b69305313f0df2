import type { LineListItem } from '../../api/contract';
import { counted, countText } from '../../domain/format';
import { loaded } from '../../domain/load';
import { isRenewal } from '../../domain/renewals';
import type { AppState } from '../../store/app-store';
import { placeholdersText } from '../../store/messages-slice';
import { selectRenewalsPlan } from '../../store/renewals-slice';
import { areaScrollsNothing, pageRows } from '../../store/ui-slice';
import { selectScreen } from '../../store/view-stack';
import { c, type Disabled } from '../command';
import { joined, keyNamed, said } from '../hints';
import { copyAndSay } from './line';

/** The lines an export from the current view covers, and how to say which; or why there are none. */
function exportLines(s: AppState): { lines: LineListItem[]; what: string } | string {
  const screen = selectScreen(s).id;
  // Marks hold each whole line as it was when marked (nothing to fetch); the page on screen or the
  // renewals lists are fresher when they have it.
  const marked = () => {
    const fresher = new Map<string, LineListItem>();
    for (const r of selectRenewalsPlan(s)?.rows ?? []) fresher.set(r.line.id, r.line);
    for (const l of loaded(s.lines)?.lines ?? []) fresher.set(l.id, l);
    return [...s.marked.lines()].map((l) => fresher.get(l.id) ?? l);
  };
  if (screen === 'marks') {
    const lines = marked();
    return lines.length ? { lines, what: `the ${counted(lines.length, 'marked line')}` } : 'Nothing marked';
  }
  if (s.marked.size > 0) return { lines: marked(), what: `the ${counted(s.marked.size, 'marked line')}` };
  const plan = selectRenewalsPlan(s);
  if (!plan) return s.renewals.status === 'error' ? notLoaded(s) : 'Still loading';
  // Left out as everywhere in this view: trials cannot be renewed, and a suspended line with paid
  // time needs an unsuspend, not a renewal reminder.
  const lines = plan.rows.filter((r) => isRenewal(r.group)).map((r) => r.line);
  return lines.length
    ? { lines, what: `every renewable line listed (${countText(lines.length)})` }
    : 'Nothing to renew';
}

/** The renewals did not load, with the key that tries again while it works here. */
const notLoaded = (s: AppState): string =>
  joined(['The renewals did not load', said(keyNamed(s, 'app.refresh'), 'tries again')], ': ');

/** The footer asks on every frame: counts only, the lines are gathered when the key is pressed. */
const canExport: Disabled = (s) => {
  if (s.marked.size > 0) return null;
  if (selectScreen(s).id === 'marks') return 'Nothing marked';
  const plan = selectRenewalsPlan(s);
  if (!plan) return s.renewals.status === 'error' ? notLoaded(s) : 'Still loading';
  return plan.renewable > 0 ? null : 'Nothing to renew';
};

/** A page is the templates the picker shows as drawn at the size now (less one kept in sight): the
 *  page keys wait for that count, and move something only when some templates are out of view. */
const paged: Disabled = (s) => areaScrollsNothing(s, 'message', s.templates.length, 'template');

/** The message picker (a template for the line, or for every line of an export) and the exports. */
export const MESSAGE_COMMANDS = [
  c('message.down', ['down', 'j'], 'message', 'Navigate', 'Next template', (s) => s.moveMessageCursor(1)),
  c('message.up', ['up', 'k'], 'message', 'Navigate', 'Previous template', (s) => s.moveMessageCursor(-1)),
  c(
    'message.pageDown',
    ['pagedown'],
    'message',
    'Navigate',
    'A page of templates down',
    (s) => s.moveMessageCursor(pageRows(s, 'message')),
    { disabled: paged },
  ),
  c(
    'message.pageUp',
    ['pageup'],
    'message',
    'Navigate',
    'A page of templates up',
    (s) => s.moveMessageCursor(-pageRows(s, 'message')),
    { disabled: paged },
  ),
  c(
    'message.pick',
    ['enter'],
    'message',
    'Copy',
    'Use this template: copy the message (or write the export)',
    (s, fx) => {
      const m = s.messages;
      const template = m ? s.templates[m.cursor] : undefined;
      if (!m || !template) return;
      if (m.mode === 'export') return s.exportMessages();
      const { text, missing } = s.messageFor(template, m.line);
      s.closeMessages();
      const what = `the "${template.name}" message for ${m.line.username}`;
      copyAndSay(missing.length ? `${what} (no value for ${placeholdersText(missing)})` : what, text)(s, fx);
    },
    { footer: true },
  ),
  c('message.close', ['escape'], 'message', 'Copy', 'Cancel', (s) => s.closeMessages(), { footer: true }),

  c(
    'messages.export',
    ['x'],
    ['marks', 'renewals'],
    'Copy',
    'Export customer messages: one per line, CSV and text (the marked lines, else every renewable one listed)…',
    (s) => {
      const r = exportLines(s);
      if (typeof r !== 'string') s.openMessageExport(r.lines, r.what);
    },
    { footer: true, disabled: canExport },
  ),
] as const;

/**
 * The one rule for keys and typed text: which scopes take typed text, when, and whether the text typed
 * now takes a key ahead of a command. Dispatch (keys/dispatch.ts), the footer, the keys named in
 * sentences and flashes (hints.ts `keyNamed`) and the remap rules (user-keys.ts) all read it from
 * here, so a key the screen names is one that runs its command there, and a remap is refused where it
 * would be typed.
 */
import { FIELDS } from '../domain/line-form';
import type { AppState } from '../store/app-store';
import { focusedView, isDialog, topView } from '../store/view-stack';
import type { Command, Scope } from './command';
import { EDIT_KEYS } from './edit-keys';

export type TextState = Pick<AppState, 'views' | 'searchOpen' | 'form' | 'action' | 'bulk'>;

/**
 * The scopes where text is typed: a text field with a caret ('field': its editing keys come before
 * any command), or typed text where commands come first ('store': the picker's filter, the delete
 * confirmation); `when` (if given) says whether it is typed there now.
 */
interface TextScope {
  readonly target: 'field' | 'store';
  readonly when?: (s: TextState) => boolean;
}
const TEXT_IN: Partial<Record<Scope, TextScope>> = {
  search: { target: 'field' },
  palette: { target: 'field' },
  profileAdd: { target: 'field' },
  note: { target: 'field' },
  form: { target: 'field', when: (s) => FIELDS.find((f) => f.id === s.form?.focus)?.kind === 'text' },
  picker: { target: 'store' },
  action: { target: 'store', when: (s) => s.action?.op === 'delete' && s.action.phase === 'review' },
  bulk: { target: 'store', when: (s) => s.bulk?.job.op === 'delete' && s.bulk.phase === 'preview' },
};

/** The scopes where a printable key may type text rather than run a command. */
export const TEXT_SCOPES: readonly Scope[] = Object.keys(TEXT_IN) as Scope[];
/** The scopes where a text field may have the caret: its editing keys come before any command. */
export const FIELD_SCOPES: readonly Scope[] = TEXT_SCOPES.filter((sc) => TEXT_IN[sc]?.target === 'field');

/**
 * The scopes whose keys work now: the dialog on top alone; the browser's open search field alone; a
 * screen on top, then global keys. First match wins.
 */
export function activeScopes(s: TextState): Scope[] {
  const focus = focusedView(s);
  if (focus === 'search') return ['search'];
  const top = topView(s);
  return isDialog(top) ? [top.id] : [top.id, 'global'];
}

/** Where typed text goes now: a field with a caret, typed text where commands come first, or nowhere. */
export function textTarget(s: TextState): 'field' | 'store' | null {
  const t = TEXT_IN[activeScopes(s)[0]!];
  return t && (t.when?.(s) ?? true) ? t.target : null;
}

const EDITS = new Set<string>(EDIT_KEYS);
/** A key that types a character where text is typed. */
export const isPrintable = (key: string) => key === 'space' || [...key].length === 1;

/** The key that quits from anywhere, a dialog or a text field included: no scope or text takes it. */
export const QUITS_ANYWHERE = 'ctrl+c';

/**
 * Whether the text typed now (`textTarget`) takes `key` ahead of `cmd`, a command of the active
 * scopes bound to it. A field takes its editing keys before any command; typed text takes a printable
 * key unless the command is made to work over text (the picker's Space). Enter, Esc, arrows a field
 * does not edit, PgDn and Ctrl-keys stay commands, and Ctrl-C is never taken.
 */
export function textTakes(s: TextState, key: string, cmd?: Pick<Command, 'overText'>): boolean {
  if (key === QUITS_ANYWHERE) return false;
  const target = textTarget(s);
  if (target === 'field' && EDITS.has(key)) return true;
  return target !== null && isPrintable(key) && !cmd?.overText;
}

/**
 * The key that runs `cmd` now, as the footer names it: its first key the text typed now does not
 * take; none when it works in none of the active scopes or every key of it is typed. A sentence
 * naming a key (hints.ts `keyNamed`) names this one.
 */
export function keyThatWorks(s: TextState, cmd: Command): string | undefined {
  const scopes = activeScopes(s);
  const here = cmd.scopes.some((sc) => scopes.includes(sc));
  return cmd.keys.find(
    (k) => (k === QUITS_ANYWHERE && cmd.scopes.includes('global')) || (here && !textTakes(s, k, cmd)),
  );
}

import { clampCaret } from '../domain/graphemes';
import type { AppState } from './app-store';
import { focusedView } from './view-stack';

/**
 * The text that typing edits now, whichever part of the store holds it: the search, the palette,
 * the focused form or profile field, the picker's filter, a typed confirmation. `key` names the
 * target, so a caret kept for one field is never used in another.
 */
export function targetText(s: AppState): { readonly key: string; readonly value: string } | null {
  const scope = focusedView(s);
  if (scope === 'search') return { key: scope, value: s.searchDraft };
  if (scope === 'palette') return { key: scope, value: s.paletteInput };
  if (scope === 'form' && s.form)
    return { key: `form:${s.form.focus}`, value: String(s.form.values[s.form.focus as 'label'] ?? '') };
  if (scope === 'picker' && s.picker) return { key: scope, value: s.picker.filter };
  if (scope === 'action' && s.action) return { key: scope, value: s.action.typed };
  if (scope === 'bulk' && s.bulk) return { key: scope, value: s.bulk.typed };
  if (scope === 'profileAdd' && s.profileForm)
    return { key: `profile:${s.profileForm.focus}`, value: s.profileForm[s.profileForm.focus] };
  if (scope === 'note' && s.noteForm)
    return { key: `note:${s.noteForm.focus}`, value: s.noteForm.values[s.noteForm.focus] };
  return null;
}

/** Writes the target's text through the slice that owns it (which may check or clean it). */
export function setTargetText(s: AppState, value: string): void {
  const scope = focusedView(s);
  if (scope === 'search') s.setSearchDraft(value);
  else if (scope === 'palette') s.setPaletteInput(value);
  else if (scope === 'form' && s.form) s.setFormText(value);
  else if (scope === 'picker' && s.picker) s.pickerSetFilter(value);
  else if (scope === 'action' && s.action) s.setActionTyped(value);
  else if (scope === 'bulk' && s.bulk) s.bulkSetTyped(value);
  else if (scope === 'profileAdd' && s.profileForm) s.setProfileField(s.profileForm.focus, value);
  else if (scope === 'note' && s.noteForm) s.setNoteField(value);
}

/**
 * Where the caret is in the target's text: where the last edit left it, or at the end when the
 * text changed from elsewhere (Tab completion, history, a field opened again).
 */
export function caretOf(s: AppState): number {
  const t = targetText(s);
  if (!t) return 0;
  const c = s.caret;
  return c && c.key === t.key && c.value === t.value ? clampCaret(t.value, c.at) : t.value.length;
}

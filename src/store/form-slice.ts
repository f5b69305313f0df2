import type { Package } from '../api/contract';
import {
  buildBody,
  EMPTY_FORM,
  FIELDS,
  type FieldId,
  type FormValues,
  fieldError,
  fieldsFor,
  formErrors,
  randomCredential,
  typedText,
} from '../domain/line-form';
import { stepConnections } from '../domain/steps';
import type { GetState, SetState, StoreDeps } from './deps';
import { loaded } from './types';

interface FormState {
  readonly trial: boolean;
  readonly values: FormValues;
  readonly focus: FieldId;
  /** Messages shown at their fields: checked as the user types, all of them after a submit. */
  readonly errors: Partial<Record<FieldId, string>>;
}

interface PickerState {
  readonly tab: 'channels' | 'movies';
  readonly filter: string;
  readonly cursor: number;
  /** The choice when the picker opened: Esc goes back to it. */
  readonly initial: readonly number[];
  /** How far back "same bouquets as line …" has gone (Ctrl-L again goes one line further). */
  readonly sameIndex: number;
}

export interface FormSlice {
  readonly form: FormState | null;
  readonly picker: PickerState | null;
  openForm: (trial: boolean) => void;
  closeForm: () => void;
  /** `field`: the input the text belongs to (focus may have moved on since the key arrived). */
  setFormText: (text: string, field?: FieldId) => void;
  moveFocus: (delta: 1 | -1) => void;
  adjustField: (delta: 1 | -1) => void;
  toggleField: () => void;
  generateField: () => void;
  submitForm: () => void;
  pickerMove: (delta: number) => void;
  pickerToggle: () => void;
  pickerSwitchTab: () => void;
  pickerSetFilter: (text: string) => void;
  pickerSetAll: (on: boolean) => void;
  pickerClose: (keep: boolean) => void;
  /** `older`: how to pick an older line ("Ctrl-L again for an older line"), said by the command while its key works. */
  pickerSameAsLine: (older?: string | null) => void;
  /** The packages arrived: a form opened before them gets its default package now. */
  formPackagesArrived: (packages: readonly Package[]) => void;
  /** The server refused a create and named fields: their messages go to them, the focus to `first`. */
  formServerErrors: (errors: Partial<Record<FieldId, string>>, first: FieldId) => void;
}

/** Bouquets of the picker's tab that match its filter (letters in order, case and spaces ignored). */
export function pickerItems(s: { bouquets: Parameters<typeof loaded>[0]; picker: PickerState | null }) {
  const data = loaded(s.bouquets) as
    | { channels: { id: number; label: string }[]; movies: { id: number; label: string }[] }
    | undefined;
  if (!data || !s.picker) return [];
  const want = s.picker.filter.toLowerCase().replace(/\s+/g, '');
  return data[s.picker.tab].filter((b) => {
    let i = 0;
    for (const ch of b.label.toLowerCase()) if (ch === want[i]) i++;
    return i === want.length;
  });
}

export function createFormSlice(set: SetState, get: GetState, deps: StoreDeps): FormSlice {
  const packagesFor = (trial: boolean) => (loaded(get().packages) ?? []).filter((p) => p.is_trial === trial);
  const update = (values: FormValues, focusOnly?: FieldId) => {
    const form = get().form!;
    const pk = packagesFor(form.trial);
    const errors = { ...form.errors };
    for (const f of fieldsFor(form.trial)) {
      if (focusOnly && f.id !== focusOnly && !(f.id in errors)) continue;
      const e = fieldError(f.id, values, pk);
      if (e) errors[f.id] = e;
      else delete errors[f.id];
    }
    set({ form: { ...form, values, errors } });
  };

  return {
    form: null,
    picker: null,

    openForm(trial) {
      const prev = get().form;
      // Reopening the same kind keeps what was typed (Esc from the confirm dialog comes back here too).
      if (!prev || prev.trial !== trial) {
        const first = packagesFor(trial)[0];
        set({
          form: {
            trial,
            values: { ...EMPTY_FORM, packageId: first?.id ?? null },
            focus: 'package',
            errors: {},
          },
        });
      }
      get().pushView({ id: 'form' });
      if (get().packages.status !== 'ready') void get().loadCatalog();
    },
    closeForm() {
      set({ form: null, picker: null });
      get().closeView('picker');
      get().closeView('form');
    },
    setFormText(text, field) {
      const form = get().form;
      if (!form) return;
      const id = field ?? form.focus;
      if (FIELDS.find((f) => f.id === id)?.kind !== 'text') return;
      update({ ...form.values, [id]: typedText(text) }, id);
    },
    moveFocus(delta) {
      const form = get().form;
      if (!form) return;
      const fields = fieldsFor(form.trial);
      const i = fields.findIndex((f) => f.id === form.focus);
      const next = fields[(i + delta + fields.length) % fields.length]!;
      set({ form: { ...form, focus: next.id } });
    },
    adjustField(delta) {
      const form = get().form;
      if (!form) return;
      const v = form.values;
      if (form.focus === 'package') {
        const pk = packagesFor(form.trial);
        if (!pk.length) return;
        const i = pk.findIndex((p) => p.id === v.packageId);
        update({ ...v, packageId: pk[(i + delta + pk.length) % pk.length]!.id });
      } else if (form.focus === 'connections') {
        update({ ...v, connections: stepConnections(v.connections, delta) });
      } else if (form.focus === 'enabled') update({ ...v, enabled: !v.enabled });
    },
    toggleField() {
      const form = get().form;
      if (!form) return;
      if (form.focus === 'enabled') update({ ...form.values, enabled: !form.values.enabled });
      if (form.focus === 'bouquets') {
        set({
          picker: { tab: 'channels', filter: '', cursor: 0, initial: form.values.bouquets, sameIndex: 0 },
        });
        get().pushView({ id: 'picker' });
        if (get().bouquets.status !== 'ready') void get().loadCatalog();
      }
    },
    generateField() {
      const form = get().form;
      if (!form || (form.focus !== 'username' && form.focus !== 'password')) {
        get().notify('A random value fills only the username or the password field', 'info');
        return;
      }
      update(
        { ...form.values, [form.focus]: randomCredential(form.focus === 'username' ? 14 : 16) },
        form.focus,
      );
    },
    submitForm() {
      const form = get().form;
      if (!form) return;
      const pk = packagesFor(form.trial);
      const errors = formErrors(form.trial, form.values, pk);
      const first = fieldsFor(form.trial).find((f) => errors[f.id]);
      if (first) {
        set({ form: { ...form, errors, focus: first.id } });
        get().notify(`${first.label}: ${errors[first.id]}`, 'error');
        return;
      }
      const pkg = pk.find((p) => p.id === form.values.packageId)!;
      const body = buildBody(form.trial, form.values, pkg);
      // Keep the generated username in the form, so Esc from the confirm dialog shows what was sent.
      set({ form: { ...form, errors, values: { ...form.values, username: String(body.username) } } });
      get().openAction({ op: form.trial ? 'trial' : 'create', body, pkg });
    },

    pickerMove(delta) {
      const p = get().picker;
      if (!p) return;
      const n = pickerItems(get()).length;
      set({ picker: { ...p, cursor: Math.max(0, Math.min(n - 1, p.cursor + delta)) } });
    },
    pickerToggle() {
      const { picker, form } = get();
      const item = pickerItems(get())[picker?.cursor ?? -1];
      if (!picker || !form || !item) return;
      const chosen = new Set(form.values.bouquets);
      if (chosen.has(item.id)) chosen.delete(item.id);
      else chosen.add(item.id);
      set({ form: { ...form, values: { ...form.values, bouquets: [...chosen].sort((a, b) => a - b) } } });
      get().pickerMove(1);
    },
    pickerSwitchTab() {
      const p = get().picker;
      if (p)
        set({ picker: { ...p, tab: p.tab === 'channels' ? 'movies' : 'channels', cursor: 0, filter: '' } });
    },
    pickerSetFilter(text) {
      const p = get().picker;
      if (p) set({ picker: { ...p, filter: typedText(text), cursor: 0 } });
    },
    pickerSetAll(on) {
      const { form } = get();
      if (!form) return;
      const ids = pickerItems(get()).map((b) => b.id);
      const chosen = new Set(form.values.bouquets);
      for (const id of ids) on ? chosen.add(id) : chosen.delete(id);
      set({ form: { ...form, values: { ...form.values, bouquets: [...chosen].sort((a, b) => a - b) } } });
    },
    pickerSameAsLine(older) {
      const { picker, form } = get();
      if (!picker || !form) return;
      // Lines created from here, newest first, that were given bouquets.
      const sources = [...(deps.journal?.read() ?? [])]
        .reverse()
        .filter(
          (e) =>
            (e.operation === 'create' || e.operation === 'trial') &&
            e.outcome === 'applied' &&
            e.bouquets?.length,
        );
      if (!sources.length) {
        get().notify(
          'No line created from linedesk with bouquets yet (the API does not return a line’s bouquets)',
          'info',
        );
        return;
      }
      const src = sources[picker.sameIndex % sources.length]!;
      set({
        form: { ...form, values: { ...form.values, bouquets: [...src.bouquets!] } },
        picker: { ...picker, sameIndex: picker.sameIndex + 1 },
      });
      get().notify(
        `Same bouquets as ${src.username} (${src.bouquets!.length})${older ? `; ${older}` : ''}`,
        'info',
      );
    },
    pickerClose(keep) {
      const { picker, form } = get();
      if (!picker || !form) return;
      if (!keep) set({ form: { ...form, values: { ...form.values, bouquets: picker.initial } } });
      set({ picker: null });
      get().closeView('picker');
    },
    formPackagesArrived(packages) {
      const form = get().form;
      const first = form && form.values.packageId === null && packages.find((p) => p.is_trial === form.trial);
      if (!form || !first) return;
      const { package: _gone, ...errors } = form.errors;
      set({ form: { ...form, values: { ...form.values, packageId: first.id }, errors } });
    },

    formServerErrors(errors, first) {
      const form = get().form;
      if (form) set({ form: { ...form, errors: { ...form.errors, ...errors }, focus: first } });
    },
  };
}

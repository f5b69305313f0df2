/** The options of create, trial, extend, upgrade, unsuspend and delete, checked with the form's rules. */
import { REGULAR_DURATIONS, TRIAL_DURATIONS } from '../../api/contract';
import type { ChangeOp } from '../../domain/bulk';
import { EMPTY_FORM, type FieldId, type FormValues, fieldError } from '../../domain/line-form';
import type { Months } from '../../domain/steps';
import type { Values } from '../args';
import { EXIT } from '../failure';
import type { Failure } from '../output';

export interface ChangeParams {
  readonly op: ChangeOp;
  readonly months: Months;
  readonly connections: number;
  /** Trial: the trial package's length. */
  readonly hours: number | null;
  /** Create and trial: the form's values (the package is chosen from months or hours). */
  readonly form: FormValues;
}

/** The path of a failure about a form field: the option it is set with where the names differ in kind. */
export const pathOf = (id: FieldId, trial: boolean): string =>
  id === 'package' ? (trial ? 'hours' : 'months') : id;

/** The flag a form field is set with. */
export const FLAG_OF: Partial<Record<FieldId, string>> = {
  package: '--months',
  connections: '--connections',
  username: '--username',
  password: '--password',
  label: '--label',
  macaddress: '--mac',
  parental_code: '--parental-code',
  bouquets: '--bouquets',
};

export const invalid = (field: string, message: string): Failure => ({
  code: 'invalid_field',
  message,
  path: [field],
  exit: EXIT.usage,
});

const oneOf = <T extends number>(
  values: Values,
  name: string,
  allowed: readonly T[],
  fallback: T | null,
  field = name,
): T | Failure => {
  const raw = values[name];
  if (raw === undefined) {
    if (fallback !== null) return fallback;
    return invalid(field, `--${name} is required: ${allowed.join(', ')}`);
  }
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || !allowed.includes(n as T))
    return invalid(field, `--${name} takes ${allowed.join(', ')}, not "${String(raw).slice(0, 20)}"`);
  return n as T;
};

const CONNECTIONS = [1, 2, 3, 4, 5, 6] as const;
const isFailure = (v: unknown): v is Failure => typeof v === 'object' && v !== null && 'exit' in v;

/** Pure: every rule is the form's or the contract's, and a failure names its field. */
export function changeParams(op: ChangeOp, values: Values): ChangeParams | Failure {
  const months = oneOf<Months>(values, 'months', REGULAR_DURATIONS, op === 'create' ? null : 1);
  if (isFailure(months)) return months;
  const connections = oneOf<number>(values, 'connections', CONNECTIONS, op === 'upgrade' ? null : 1);
  if (isFailure(connections)) return connections;
  const hours = op === 'trial' ? oneOf<number>(values, 'hours', TRIAL_DURATIONS, null) : null;
  if (isFailure(hours)) return hours;
  let form = EMPTY_FORM;
  if (op === 'create' || op === 'trial') {
    const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '');
    const bouquetsText = text('bouquets').trim();
    const bouquets = bouquetsText ? bouquetsText.split(/[\s,]+/).filter(Boolean) : [];
    const bad = bouquets.find((b) => !/^\d{1,9}$/.test(b));
    if (bad !== undefined)
      return invalid(
        'bouquets',
        `--bouquets takes bouquet ids (whole numbers, comma-separated), not "${bad.slice(0, 20)}"`,
      );
    form = {
      ...EMPTY_FORM,
      connections: op === 'trial' ? 1 : connections,
      username: text('username'),
      password: text('password'),
      label: text('label'),
      macaddress: text('mac'),
      parental_code: text('parental-code'),
      enabled: values.disabled !== true,
      bouquets: [...new Set(bouquets.map(Number))],
    };
    // The form's rules, field by field, before anything is asked of the server.
    for (const id of ['username', 'password', 'label', 'macaddress', 'parental_code'] as const) {
      const e = fieldError(id, form, []);
      if (e) return invalid(id, `${FLAG_OF[id]}: ${e}`);
    }
  }
  return { op, months, connections, hours, form };
}

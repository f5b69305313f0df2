/**
 * The create/trial form as data: fields, their rules (the contract's own schemas, so the form and
 * the API agree), and the request body they make. Pure: tested without a terminal.
 */
import type { z } from 'zod';
import {
  type CreateLineBody,
  type CreateTrialBody,
  LABEL_MAX,
  label,
  macaddress,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type Package,
  parentalCode,
  password,
  USERNAME_MAX,
  USERNAME_MIN,
  username,
} from '../api/contract';
import { stripForbidden } from '../api/sanitize';

export type FieldId =
  | 'package'
  | 'connections'
  | 'username'
  | 'password'
  | 'label'
  | 'macaddress'
  | 'parental_code'
  | 'enabled'
  | 'bouquets';

type FieldKind = 'select' | 'number' | 'text' | 'toggle' | 'bouquets';

export interface FieldDef {
  readonly id: FieldId;
  readonly label: string;
  readonly kind: FieldKind;
  /** The rule shown beside the field. */
  readonly hint: string;
  readonly trialToo: boolean;
  /** Text fields: the most characters the contract allows (a paste is cut to it). */
  readonly maxLength?: number;
}

export const FIELDS: readonly FieldDef[] = [
  { id: 'package', label: 'Package', kind: 'select', hint: 'choose', trialToo: true },
  { id: 'connections', label: 'Connections', kind: 'number', hint: '1 to 6', trialToo: false },
  {
    id: 'username',
    label: 'Username',
    kind: 'text',
    hint: `${USERNAME_MIN}–${USERNAME_MAX} of A–Z a–z 0–9 - . _ ~; blank: random`,
    trialToo: true,
    maxLength: USERNAME_MAX,
  },
  {
    id: 'password',
    label: 'Password',
    kind: 'text',
    hint: `${PASSWORD_MIN}–${PASSWORD_MAX} of A–Z a–z 0–9 - . _ ~; blank: random`,
    trialToo: true,
    maxLength: PASSWORD_MAX,
  },
  {
    id: 'label',
    label: 'Label',
    kind: 'text',
    hint: 'up to 30 characters',
    trialToo: true,
    maxLength: LABEL_MAX,
  },
  {
    id: 'macaddress',
    label: 'MAC address',
    kind: 'text',
    hint: 'six hex pairs, e.g. 00:1A:79:12:34:56',
    trialToo: true,
    maxLength: 17,
  },
  {
    id: 'parental_code',
    label: 'Parental code',
    kind: 'text',
    hint: 'exactly 4 digits',
    trialToo: true,
    maxLength: 4,
  },
  { id: 'enabled', label: 'Enabled', kind: 'toggle', hint: 'toggles', trialToo: true },
  {
    id: 'bouquets',
    label: 'Bouquets',
    kind: 'bouquets',
    hint: 'picks' /* after its key, named by the UI from the command table */,
    trialToo: true,
  },
];

export const fieldsFor = (trial: boolean) => FIELDS.filter((f) => !trial || f.trialToo);

export interface FormValues {
  readonly packageId: number | null;
  readonly connections: number;
  readonly username: string;
  readonly password: string;
  readonly label: string;
  readonly macaddress: string;
  readonly parental_code: string;
  readonly enabled: boolean;
  readonly bouquets: readonly number[];
}

export const EMPTY_FORM: FormValues = {
  packageId: null,
  connections: 1,
  username: '',
  password: '',
  label: '',
  macaddress: '',
  parental_code: '',
  enabled: true,
  bouquets: [],
};

const TEXT_RULES: Partial<Record<FieldId, z.ZodType>> = {
  username,
  password,
  label,
  macaddress,
  parental_code: parentalCode,
};

/** The message for one field, or null. Blank optional text is fine. */
export function fieldError(id: FieldId, v: FormValues, packages: readonly Package[]): string | null {
  if (id === 'package') return packages.some((p) => p.id === v.packageId) ? null : 'Choose a package';
  if (id === 'connections')
    return v.connections >= 1 && v.connections <= 6 ? null : 'Connections must be 1 to 6';
  const rule = TEXT_RULES[id];
  const text = (v as unknown as Record<string, string>)[id];
  if (!rule || text === undefined || text === '') return null;
  const r = rule.safeParse(text);
  return r.success ? null : (r.error.issues[0]?.message ?? 'Invalid');
}

export function formErrors(trial: boolean, v: FormValues, packages: readonly Package[]) {
  const out: Partial<Record<FieldId, string>> = {};
  for (const f of fieldsFor(trial)) {
    const e = fieldError(f.id, v, packages);
    if (e) out[f.id] = e;
  }
  return out;
}

const UNRESERVED_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A random value that passes the rule: letters and digits only (no look-alikes). */
export function randomCredential(length: number): string {
  // node:crypto when first needed: importing it at the top loaded it for every command (≈ 8 ms).
  const { randomInt } = process.getBuiltinModule('node:crypto');
  let out = '';
  for (let i = 0; i < length; i++) out += UNRESERVED_ALPHABET[randomInt(UNRESERVED_ALPHABET.length)];
  return out;
}

/**
 * The exact request body. A blank username is filled with a random one here, not by the server: an
 * unknown outcome can then be checked by looking the username up.
 */
export function buildBody(trial: boolean, v: FormValues, pkg: Package): CreateLineBody | CreateTrialBody {
  const body: Record<string, unknown> = {
    duration: pkg.duration,
    username: v.username || `ld${randomCredential(12)}`,
    enabled: v.enabled,
  };
  if (!trial) body.connections = v.connections;
  if (v.password) body.password = v.password;
  if (v.label) body.label = v.label;
  if (v.macaddress) body.macaddress = v.macaddress;
  if (v.parental_code) body.parental_code = v.parental_code;
  if (v.bouquets.length) body.bouquets = [...v.bouquets];
  return body as CreateLineBody;
}

/**
 * Typed text never carries what sanitize() forbids: a chunk of keys can smuggle Tab or Enter into a
 * field, and a C1 CSI or a bidi override would act on the terminal when the field is drawn.
 */
export const typedText = (text: string) => stripForbidden(text);

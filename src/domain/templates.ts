/**
 * Customer messages (line details, renewal reminders) from templates with `{NAME}` placeholders.
 * Values come from servers and local notes and end up in WhatsApp, a spreadsheet or the terminal,
 * so each is cleaned and kept on the line the template puts it on. Pure: the clock is an argument.
 */

import { stripSequences } from '../api/sanitize';
import { csvText } from './csv';
import { type DayWords, daysUntil, daysWords, ENGLISH_DAYS } from './format';

export interface Template {
  readonly id: string;
  readonly name: string;
  readonly body: string;
  /** Its own words for `{DAYSTEXT}` (a Spanish template's "mañana", "en {N} días"); English otherwise. */
  readonly days?: DayWords;
}

export const PLACEHOLDERS = [
  'USERNAME',
  'PASSWORD',
  'EXPDATE',
  'DAYS',
  'DAYSTEXT',
  'PORTAL',
  'SERVER',
  'LABEL',
  'NOTE',
  'CUSTOMER',
  'PHONE',
  'CONNECTIONS',
  'M3U_URL',
  'EPG_URL',
  'PORTAL_URL',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
const KNOWN: ReadonlySet<string> = new Set(PLACEHOLDERS);

export const DEFAULT_TEMPLATES: readonly Template[] = Object.freeze(
  [
    {
      id: 'details',
      name: 'New line: your details',
      body: 'Hello! Your line is ready.\n\nUsername: {USERNAME}\nPassword: {PASSWORD}\nPortal (MAG): {PORTAL}\nServer: {SERVER}\nExpires: {EXPDATE}\n\nEnjoy!',
    },
    {
      id: 'reminder',
      name: 'Renewal reminder',
      body: 'Hello! A reminder about your line {USERNAME}:\nit expires {EXPDATE} ({DAYSTEXT}).\nReply here to renew it. Thank you!',
    },
    {
      id: 'renewed',
      name: 'Renewed: new expiry',
      body: 'Thank you! Your line {USERNAME} is renewed.\nNew expiry: {EXPDATE}.',
    },
  ].map((t) => Object.freeze(t)),
);
const DEFAULT_IDS: ReadonlySet<string> = new Set(DEFAULT_TEMPLATES.map((t) => t.id));

type TemplateResult = { ok: true; template: Template } | { ok: false; error: string };

export function parseTemplate(t: unknown): TemplateResult {
  return check(t, '');
}

/**
 * The config's templates over the defaults: a user template replaces the default with its id, others
 * follow the defaults. A bad template is refused alone (a default it meant to replace stays).
 */
export function loadTemplates(raw: unknown): { templates: Template[]; errors: string[] } {
  if (raw === undefined) return { templates: [...DEFAULT_TEMPLATES], errors: [] };
  if (!Array.isArray(raw))
    return { templates: [...DEFAULT_TEMPLATES], errors: ['Templates: expected a list; using the defaults'] };
  const errors: string[] = [];
  const mine = new Map<string, Template>();
  raw.forEach((item, i) => {
    const r = check(item, ` ${i + 1}`);
    if (!r.ok) errors.push(r.error);
    else if (mine.has(r.template.id))
      errors.push(`Template "${r.template.id}": the id is used twice; the first one is kept`);
    else mine.set(r.template.id, r.template);
  });
  const templates = DEFAULT_TEMPLATES.map((d) => mine.get(d.id) ?? d);
  for (const t of mine.values()) if (!DEFAULT_IDS.has(t.id)) templates.push(t);
  return { templates, errors };
}

const ID = /^[a-z0-9-]{1,32}$/;
// A body may hold newlines and tabs; anything else that acts on a terminal is refused. A name, neither.
const BODY_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
const BODY_CONTROLS = new RegExp(BODY_CONTROL.source, 'g');
const NAME_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/** `position` names a template whose id cannot be trusted for the message (" 2" → "Template 2"). */
function check(t: unknown, position: string): TemplateResult {
  const fail = (error: string): TemplateResult => ({ ok: false, error });
  if (typeof t !== 'object' || t === null || Array.isArray(t))
    return fail(`Template${position}: expected an object with id, name and body`);
  const { id, name, body, days: rawDays } = t as Record<string, unknown>;
  if (typeof id !== 'string' || !ID.test(id))
    return fail(`Template${position}: id must be 1–32 characters of a-z, 0-9 and -`);
  const who = `Template "${id}"`;
  if (typeof name !== 'string' || name.trim().length < 1 || name.length > 60)
    return fail(`${who}: name must be 1–60 characters`);
  if (NAME_CONTROL.test(name)) return fail(`${who}: name holds a control character`);
  if (typeof body !== 'string') return fail(`${who}: body must be text`);
  const text = body.replace(/\r\n/g, '\n');
  if (text.length < 1 || text.length > 2000) return fail(`${who}: body must be 1–2000 characters`);
  if (BODY_CONTROL.test(text))
    return fail(`${who}: body holds a control character (only newlines and tabs are allowed)`);
  const { error } = tokenize(text);
  if (error) return fail(`${who}: ${error}`);
  if (rawDays === undefined) return { ok: true, template: { id, name, body: text } };
  const days = dayWordsOf(rawDays);
  if (typeof days === 'string') return fail(`${who}: days: ${days}`);
  return { ok: true, template: { id, name, body: text, days } };
}

const DAY_KEYS = Object.keys(ENGLISH_DAYS) as (keyof DayWords)[];

/** A template's `days` words over the English ones, or what is wrong with them. */
function dayWordsOf(raw: unknown): DayWords | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return `expected an object of words (${DAY_KEYS.join(', ')})`;
  const words: Record<string, string> = { ...ENGLISH_DAYS };
  for (const [key, value] of Object.entries(raw)) {
    if (!(DAY_KEYS as string[]).includes(key))
      return `unknown word "${key.slice(0, 20)}" (known: ${DAY_KEYS.join(', ')})`;
    if (typeof value !== 'string' || value.trim() === '' || value.length > 40)
      return `${key} must be 1–40 characters`;
    if (NAME_CONTROL.test(value)) return `${key} holds a control character`;
    if ((key === 'in' || key === 'ago') && !value.includes('{N}'))
      return `${key} must hold {N}, the number of days ("${key === 'in' ? 'en {N} días' : 'hace {N} días'}")`;
    words[key] = value;
  }
  return words as unknown as DayWords;
}

type Part = { readonly text: string } | { readonly name: string };

/** Never throws: what cannot be read stays literal text, and the first problem is named. */
function tokenize(body: string): { parts: Part[]; error: string | null } {
  const parts: Part[] = [];
  let text = '';
  let error: string | null = null;
  const placeholder = /\{([^{}\n]*)\}/y;
  for (let i = 0; i < body.length; ) {
    const ch = body[i]!;
    if ((ch === '{' || ch === '}') && body[i + 1] === ch) {
      text += ch;
      i += 2;
    } else if (ch === '}') {
      error ??= `stray } at ${where(body, i)} (write }} for a literal brace)`;
      text += ch;
      i++;
    } else if (ch === '{') {
      placeholder.lastIndex = i;
      const m = placeholder.exec(body);
      if (m === null) {
        error ??= `unclosed { at ${where(body, i)} (write {{ for a literal brace)`;
        text += ch;
        i++;
        continue;
      }
      const name = m[1]!;
      if (KNOWN.has(name)) {
        if (text) parts.push({ text });
        parts.push({ name });
        text = '';
      } else {
        error ??= `unknown placeholder {${name.slice(0, 40)}} (known: ${PLACEHOLDERS.join(', ')})`;
        text += m[0];
      }
      i += m[0].length;
    } else {
      text += ch;
      i++;
    }
  }
  if (text) parts.push({ text });
  return { parts, error };
}

function where(body: string, i: number): string {
  const before = body.slice(0, i).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

export interface MessageValues {
  username: string;
  password: string;
  expMs: number | null;
  portal?: string | null;
  server?: string | null;
  label?: string | null;
  note?: { name?: string; phone?: string; text?: string } | null;
  connections?: number | null;
  /** Connection links (domain/links.ts `linkValues`): null when the line has none (no usable host). */
  links?: { readonly m3u: string | null; readonly epg: string | null; readonly portal: string | null } | null;
}

/** The message for one line. A template that never passed parseTemplate still fills safely. */
export function fillTemplate(t: Template, v: MessageValues, nowMs: number): string {
  const values = valuesFor(v, nowMs, t.days);
  return tokenize(t.body)
    .parts.map((p) => ('name' in p ? cleanValue(values[p.name as Placeholder]) : cleanBody(p.text)))
    .join('');
}

/** The placeholders `t` uses that have no value for this line (said to the user, never left silent). */
export function missingValues(t: Template, v: MessageValues, nowMs: number): Placeholder[] {
  const values = valuesFor(v, nowMs);
  const used = tokenize(t.body).parts.flatMap((p) => ('name' in p ? [p.name as Placeholder] : []));
  return [...new Set(used)].filter((name) => cleanValue(values[name]).trim() === '');
}

function valuesFor(
  v: MessageValues,
  nowMs: number,
  words: DayWords = ENGLISH_DAYS,
): Record<Placeholder, string | undefined | null> {
  const never = v.expMs === null;
  const exp = typeof v.expMs === 'number' && !Number.isNaN(new Date(v.expMs).getTime()) ? v.expMs : null;
  // The one day rule (format.ts): calendar days in UTC, so {DAYS} agrees with {EXPDATE} and the screens.
  const days = exp === null || !Number.isFinite(nowMs) ? null : daysUntil(exp, nowMs);
  return {
    USERNAME: v.username,
    PASSWORD: v.password,
    EXPDATE: never ? 'never' : exp === null ? '' : new Date(exp).toISOString().replace(/T.*/, ''),
    DAYS: days === null ? '' : String(days),
    DAYSTEXT: never ? words.never : days === null ? '' : daysWords(days, words),
    PORTAL: v.portal,
    SERVER: v.server,
    LABEL: v.label,
    NOTE: v.note?.text,
    CUSTOMER: v.note?.name,
    PHONE: v.note?.phone,
    CONNECTIONS:
      typeof v.connections === 'number' && Number.isFinite(v.connections) ? String(v.connections) : '',
    M3U_URL: v.links?.m3u,
    EPG_URL: v.links?.epg,
    PORTAL_URL: v.links?.portal,
  };
}

const LINE_BREAKS = /\r\n|[\t\n\v\f\r\u0085\u2028\u2029]/g;
const VALUE_CONTROLS = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** One value: no controls, no bidi overrides, and never a line break of its own (it becomes a space). */
function cleanValue(value: unknown): string {
  if (typeof value !== 'string') return '';
  return stripSequences(value).replace(LINE_BREAKS, ' ').replace(VALUE_CONTROLS, '');
}

/** The template's own text keeps its newlines and tabs; parseTemplate refused the rest already. */
function cleanBody(text: string): string {
  return stripSequences(text).replace(/\r\n?/g, '\n').replace(BODY_CONTROLS, '');
}

export interface MessageRow {
  readonly username: string;
  readonly phone: string;
  readonly message: string;
}

/** RFC 4180 with CRLF records; cells guarded against spreadsheet formulas. */
export function messagesCsv(rows: readonly MessageRow[]): string {
  return csvText([['username', 'phone', 'message'], ...rows.map((r) => [r.username, r.phone, r.message])]);
}

/** Messages to copy by hand: each under a `--- username ---` line, separated by blank lines. */
export function messagesText(rows: readonly MessageRow[]): string {
  return rows.map((r) => `--- ${cleanValue(r.username)} ---\n${r.message.replace(/\n+$/, '')}\n`).join('\n');
}

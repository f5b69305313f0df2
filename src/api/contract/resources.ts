import * as z from 'zod';
import { sanitize } from '../sanitize';
import { lazySchema, unwrapLazy } from './lazy';
import {
  nullableServerDate,
  nullableServerString,
  parseServerDate,
  serverBoolean,
  serverNumber,
  serverString,
} from './primitives';
import { safeParseTiered } from './tiered-parse';

/**
 * Resources as servers send them, read liberally (numeric strings, "true"/"false", three date forms)
 * and sanitized while parsed. In lists one bad item never hides the others: it is left out and named
 * in `unreadable` (lines) or `skipped` (packages, bouquets) with the field that was wrong.
 */

/** Line, list form: `macaddress` and `parental_code` are omitted from list items. Extra fields ignored. */
export const LineListItem = lazySchema(() =>
  z.object({
    id: serverString,
    hostname: nullableServerString,
    username: serverString,
    password: serverString,
    label: z
      .string()
      .nullish()
      .transform((v) => (v == null ? '' : sanitize(v))),
    enabled: serverBoolean,
    connections: serverNumber,
    is_trial: serverBoolean,
    exp_date: nullableServerDate,
    start_date: nullableServerDate,
    created_at: nullableServerDate,
  }),
);
export type LineListItem = z.output<typeof LineListItem>;

const nullOrString = (v: unknown): v is string | null => v === null || typeof v === 'string';

/**
 * A list item in the form the API documents (every field there, of its documented JSON type), read
 * as `LineListItem` reads it, or undefined: any other item is zod's to read (and to name what is
 * wrong with it). The same values, the same keys in the same order, every string sanitized
 * (test/api/list-item-fast.property.test.ts). Issue 27: zod's parse of an item, its steps and the
 * objects it makes, was a sixth of `A`'s CPU on 100,000 lines, and most of its garbage.
 */
export function documentedLineItem(item: unknown): LineListItem | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const o = item as Record<string, unknown>;
  const { id, hostname, username, password, label, enabled, connections, is_trial } = o;
  const { exp_date, start_date, created_at } = o;
  if (
    typeof id !== 'string' ||
    typeof username !== 'string' ||
    typeof password !== 'string' ||
    !nullOrString(hostname) ||
    !nullOrString(label) ||
    typeof enabled !== 'boolean' ||
    typeof is_trial !== 'boolean' ||
    typeof connections !== 'number' ||
    !Number.isFinite(connections) ||
    !nullOrString(exp_date) ||
    !nullOrString(start_date) ||
    !nullOrString(created_at)
  )
    return undefined;
  return {
    id: sanitize(id),
    hostname: hostname === null ? null : sanitize(hostname),
    username: sanitize(username),
    password: sanitize(password),
    label: label === null ? '' : sanitize(label),
    enabled,
    connections,
    is_trial,
    exp_date: exp_date === null ? null : parseServerDate(exp_date),
    start_date: start_date === null ? null : parseServerDate(start_date),
    created_at: created_at === null ? null : parseServerDate(created_at),
  };
}

/** Line, single-line form (create, extend, upgrade, unsuspend). */
export const Line = lazySchema(() =>
  LineListItem.extend({
    macaddress: nullableServerString,
    parental_code: nullableServerString,
  }),
);
export type Line = z.output<typeof Line>;

/** An item of a list that could not be read: where it was, who it was if that much is readable, why. */
export interface UnreadableItem {
  readonly index: number;
  readonly id: string | null;
  readonly username: string | null;
  readonly field: string;
  readonly message: string;
}

const textOf = (v: unknown): string | null =>
  typeof v === 'string' ? sanitize(v).slice(0, 60) : typeof v === 'number' ? String(v) : null;

/** Parses each item on its own: the good ones, and the bad ones named with their first wrong field. */
function eachItem<S extends z.ZodType>(schema: S, documented?: (item: unknown) => z.output<S> | undefined) {
  return z.array(z.unknown()).transform((items) => {
    const good: z.output<S>[] = [];
    const bad: UnreadableItem[] = [];
    // The schema itself, not its lazy stand-in: no proxy trap an item.
    const each = unwrapLazy(schema);
    items.forEach((item, index) => {
      const read = documented?.(item);
      if (read !== undefined) {
        good.push(read);
        return;
      }
      const r = safeParseTiered(each, item);
      if (r.success) good.push(r.data);
      else {
        const issue = r.error.issues[0];
        const o = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
        bad.push({
          index,
          id: textOf(o.id),
          username: textOf(o.username ?? o.package_name ?? o.label),
          field: issue?.path.map(String).join('.') || '(item)',
          message: sanitize(issue?.message ?? 'unreadable'),
        });
      }
    });
    return { good, bad };
  });
}

export const Package = lazySchema(() =>
  z.object({
    id: serverNumber.pipe(z.number().int()),
    package_name: serverString,
    duration: serverNumber,
    is_trial: serverBoolean,
    credits_cost: serverNumber,
    extra_connection_credits_cost: serverNumber,
    min_balance: serverNumber,
  }),
);
export type Package = z.output<typeof Package>;

export const PackagesResponse = lazySchema(() =>
  z
    .object({ packages: eachItem(Package) })
    .transform((r) => ({ packages: r.packages.good, skipped: r.packages.bad })),
);
export type PackagesResponse = z.output<typeof PackagesResponse>;

export const Account = lazySchema(() =>
  z.object({
    email: serverString,
    credits: serverNumber,
    lines_count: serverNumber,
    server_information: z.object({
      hostname: serverString,
      mag_portal_url: serverString,
    }),
  }),
);
export type Account = z.output<typeof Account>;

export const Bouquet = lazySchema(() => z.object({ id: serverNumber, label: serverString }));
export type Bouquet = z.output<typeof Bouquet>;

export const BouquetsResponse = lazySchema(() =>
  z.object({ channels: eachItem(Bouquet), movies: eachItem(Bouquet) }).transform((r) => ({
    channels: r.channels.good,
    movies: r.movies.good,
    skipped: [...r.channels.bad, ...r.movies.bad],
  })),
);
export type BouquetsResponse = z.output<typeof BouquetsResponse>;

const offset = lazySchema(() => serverNumber.pipe(z.number().int().min(0)));

/** A page of lines; `documented`: how an item in the documented form is read without zod. */
const linesPage = (documented?: (item: unknown) => LineListItem | undefined) =>
  z
    .object({
      offset,
      limit: serverNumber.pipe(z.number().int().min(1)),
      totalHits: serverNumber,
      totalReturns: serverNumber,
      hasNextPage: serverBoolean,
      hasPreviousPage: serverBoolean,
      nextOffset: offset.nullable(),
      previousOffset: offset.nullable(),
      lines: eachItem(LineListItem, documented),
    })
    .transform(({ lines, ...page }) => ({ ...page, lines: lines.good, unreadable: lines.bad }));

export const LinesPage = lazySchema(() => linesPage());
export type LinesPage = z.output<typeof LinesPage>;
/**
 * The same page, its items in the documented form read without zod (`documentedLineItem`): for a
 * walk that keeps what it reads in columns (`A`). A listing that streams its lines reads with zod:
 * with less garbage a page V8 grew its young generation and `lines --ndjson --all` peaked higher
 * (173–174 MB against 124–129 MB, docs/PERFORMANCE.md "Memory").
 */
export const LinesPageDocumented = lazySchema(() => linesPage(documentedLineItem));

/**
 * Create, trial, extend and upgrade all answer with the line and what was charged. The charge is
 * the proof that the change applied: a line we cannot read (a bad `hostname`) must not lose it, so
 * an unreadable line becomes `undefined` and the reply still counts.
 */
export const LineChargeResponse = lazySchema(() =>
  z.object({
    line: z.unknown().transform((v) => {
      const r = safeParseTiered(Line, v);
      return r.success ? r.data : undefined;
    }),
    deducedCredits: serverNumber,
    newBalance: serverNumber,
  }),
);
export type LineChargeResponse = z.output<typeof LineChargeResponse>;

export const CostResponse = lazySchema(() => z.object({ cost: serverNumber }));
export type CostResponse = z.output<typeof CostResponse>;

export const DeleteResponse = lazySchema(() => z.object({ success: serverBoolean }));
export type DeleteResponse = z.output<typeof DeleteResponse>;

import * as z from 'zod';
import { sanitize } from '../sanitize';
import { lazySchema, unwrapLazy } from './lazy';
import {
  mapped,
  nullableServerDate,
  nullableServerString,
  parseServerDate,
  serverBoolean,
  serverNumber,
  serverString,
} from './primitives';
import { readPlainly, safeParseTiered } from './tiered-parse';

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
    label: mapped(z.string().nullable().default(null), (v) => (v == null ? '' : sanitize(v))),
    enabled: serverBoolean,
    connections: serverNumber,
    is_trial: serverBoolean,
    exp_date: nullableServerDate,
    start_date: nullableServerDate,
    created_at: nullableServerDate,
  }),
);
export type LineListItem = z.output<typeof LineListItem>;

/**
 * A list item in the documented form (each field of its own JSON type, a nullable one null or
 * omitted), read without zod: each string sanitized and each date read as the schema does, the
 * fields in the schema's order, other fields left out, as zod's result has them. zod took ≈ 2 µs
 * and ≈ 3 KB of garbage an item (issue 27: 100,000 items a listing). Anything else is null, and the
 * schema reads it: the liberal forms ("3", "true"), and the field that is wrong when it cannot.
 * `printable`: the reply's bytes showed every string in it printable ASCII (`jsonStringsPrintable`),
 * which the rule never replaces, so its strings are kept as they are without a test each.
 * test/api/plain-line-item.test.ts holds it to the schema's result.
 */
export function plainLineListItem(v: unknown, printable = false): LineListItem | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const { id, hostname, username, password, label, enabled, connections, is_trial } = o;
  const { exp_date, start_date, created_at } = o;
  if (
    typeof id !== 'string' ||
    (hostname != null && typeof hostname !== 'string') ||
    typeof username !== 'string' ||
    typeof password !== 'string' ||
    (label != null && typeof label !== 'string') ||
    typeof enabled !== 'boolean' ||
    typeof connections !== 'number' ||
    !Number.isFinite(connections) ||
    typeof is_trial !== 'boolean' ||
    (exp_date != null && typeof exp_date !== 'string') ||
    (start_date != null && typeof start_date !== 'string') ||
    (created_at != null && typeof created_at !== 'string')
  )
    return null;
  if (printable)
    return {
      id,
      hostname: hostname == null ? null : (hostname as string),
      username,
      password,
      label: label == null ? '' : (label as string),
      enabled,
      connections,
      is_trial,
      exp_date: exp_date == null ? null : parseServerDate(exp_date as string),
      start_date: start_date == null ? null : parseServerDate(start_date as string),
      created_at: created_at == null ? null : parseServerDate(created_at as string),
    };
  return {
    id: sanitize(id),
    hostname: hostname == null ? null : sanitize(hostname as string),
    username: sanitize(username),
    password: sanitize(password),
    label: label == null ? '' : sanitize(label as string),
    enabled,
    connections,
    is_trial,
    exp_date: exp_date == null ? null : parseServerDate(exp_date as string),
    start_date: start_date == null ? null : parseServerDate(start_date as string),
    created_at: created_at == null ? null : parseServerDate(created_at as string),
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

/**
 * An item of a list that could not be read: where it was, who it was if that much is readable, why.
 * `id` and `username` are whole (sanitized): a lookup compares them with the name asked for; only
 * where they are shown are they cut (domain/format.ts `shownName`).
 */
export interface UnreadableItem {
  readonly index: number;
  readonly id: string | null;
  readonly username: string | null;
  readonly field: string;
  readonly message: string;
}

/** An unreadable item's id or name, whole (never cut here: it is compared; the display cuts it). */
const textOf = (v: unknown): string | null =>
  typeof v === 'string' ? sanitize(v) : typeof v === 'number' ? String(v) : null;

/**
 * An array, as `z.array(z.unknown())` reads it (the same issue when it is not one), without a zod
 * step for each item: `eachItem` reads them (issue 27: 100,000 items a listing).
 */
const anyArray = z.custom<unknown[]>().check((payload) => {
  if (!Array.isArray(payload.value))
    payload.issues.push({ expected: 'array', code: 'invalid_type', input: payload.value } as never);
});

/**
 * Parses each item on its own: the good ones, and the bad ones named with their first wrong field.
 * `plain` reads the common form faster (null: the schema reads the item).
 */
function eachItem<S extends z.ZodType>(
  schema: S,
  plain?: (item: unknown, printable: boolean) => z.output<S> | null,
) {
  return mapped(anyArray, (items) => readItems(items, schema, plain, false));
}

/** `eachItem`'s reading: the good items, and the bad ones named with their first wrong field. */
function readItems<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  plain: ((item: unknown, printable: boolean) => z.output<S> | null) | undefined,
  printable: boolean,
) {
  const good: z.output<S>[] = [];
  const bad: UnreadableItem[] = [];
  // The schema itself, not its lazy stand-in: no proxy trap an item.
  const each = unwrapLazy(schema);
  items.forEach((item, index) => {
    const quick = plain?.(item, printable);
    if (quick) {
      good.push(quick);
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
        // A line is named by its username only (one without is nameless: its label is no username).
        username: textOf(
          (schema as unknown) === LineListItem ? o.username : (o.username ?? o.package_name ?? o.label),
        ),
        field: issue?.path.map(String).join('.') || '(item)',
        message: sanitize(issue?.message ?? 'unreadable'),
      });
    }
  });
  return { good, bad };
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

export const LinesPage = lazySchema(() =>
  mapped(
    z.object({
      offset,
      limit: serverNumber.pipe(z.number().int().min(1)),
      totalHits: serverNumber,
      totalReturns: serverNumber,
      hasNextPage: serverBoolean,
      hasPreviousPage: serverBoolean,
      nextOffset: offset.nullable(),
      previousOffset: offset.nullable(),
      lines: eachItem(LineListItem, plainLineListItem),
    }),
    ({ lines, ...page }) => ({ ...page, lines: lines.good, unreadable: lines.bad }),
  ),
);
export type LinesPage = z.output<typeof LinesPage>;

const isOffset = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A page whose paging fields are in the documented form (each of its JSON type, whole where the
 * schema wants it), read without zod: the page's result as `LinesPage` gives it, the same keys in
 * the same order, its items read as the schema reads them. Anything else is null, and the schema
 * reads it (issue 27: a page a request, 1,000 a listing). `printable`: every string in it is
 * printable ASCII (the reply's bytes were checked), none to sanitize. test/api/plain-lines-page.test.ts.
 */
export function plainLinesPage(v: unknown, printable = false): LinesPage | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const { offset, limit, totalHits, totalReturns, hasNextPage, hasPreviousPage } = o;
  const { nextOffset, previousOffset, lines } = o;
  if (
    !isOffset(offset) ||
    !(Number.isSafeInteger(limit) && (limit as number) >= 1) ||
    !isNumber(totalHits) ||
    !isNumber(totalReturns) ||
    typeof hasNextPage !== 'boolean' ||
    typeof hasPreviousPage !== 'boolean' ||
    (nextOffset !== null && !isOffset(nextOffset)) ||
    (previousOffset !== null && !isOffset(previousOffset)) ||
    !Array.isArray(lines)
  )
    return null;
  const read = readItems(lines, LineListItem, plainLineListItem, printable);
  return {
    offset,
    limit: limit as number,
    totalHits,
    totalReturns,
    hasNextPage,
    hasPreviousPage,
    nextOffset,
    previousOffset,
    lines: read.good,
    unreadable: read.bad,
  };
}
readPlainly(LinesPage, plainLinesPage);

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

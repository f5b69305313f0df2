import * as z from 'zod';
import { sanitize, sanitizeMultiline } from '../sanitize';
import { parseServerDate, type ServerDate } from './dates';
import { lazySchema } from './lazy';

export type { ServerDate };
/** A server date: ISO 8601, `Date.toString` or the long form (dates.ts); anything else kept unparsed. */
export { parseServerDate };

/**
 * Any string a server sends: sanitized while parsing, so nothing downstream can forget. An
 * `overwrite` (a step of the string's own checks), not a transform: no pipe a string (issue 27).
 */
export const serverString = z.string().overwrite(sanitize);
/** Server text that may span lines (error messages). */
export const serverText = z.string().transform(sanitizeMultiline);

export const serverDate = z.string().transform(parseServerDate);

/**
 * A step that maps a parsed value with `fn`, as `.transform(fn)` does, without zod's transform: its
 * parse sets a closure over its payload on every call (`payload.addIssue`), and V8 allocates a
 * closure assigned to a property in the old generation, so each of them held the value it was given
 * (and, for a page, every line of it) through every young collection until the next full one
 * (issue 27: docs/PERFORMANCE.md, "Listing every line"). An overwrite is a check and makes no
 * closure; this one runs only once the value parsed without an issue, as a pipe's transform does
 * (`unfailed`). Its output type is `fn`'s; whether the field may be omitted (a default's, an
 * optional's: zod's `optin`/`optout`) is `schema`'s, as it is for a pipe (an omitted optional field
 * stays omitted: `fn` is not run for it).
 */
export function mapped<S extends z.ZodType, T>(schema: S, fn: (value: z.output<S>) => T) {
  const step = new z.core.$ZodCheckOverwrite({ check: 'overwrite', tx: fn as never, when: unfailed });
  return schema.check(step) as unknown as Mapped<S, T>;
}

/** `mapped`'s type: `fn`'s output, `schema`'s input and its "may be omitted" flags. */
export type Mapped<S extends z.ZodType, T> = z.ZodType<
  T,
  z.input<S>,
  z.core.$ZodTypeInternals<T, z.input<S>> & {
    readonly optin: S['_zod']['optin'];
    readonly optout: S['_zod']['optout'];
  }
>;

/**
 * Whether a value has no issue yet. A plain overwrite runs after an issue that lets parsing go on (a
 * bound, a pattern: `.min(1)` of a field); a transform never sees a failed value, nor does `mapped`.
 */
const unfailed = (payload: z.core.ParsePayload): boolean => payload.issues.length === 0;

/**
 * A nullable server string or date, tolerant of an omitted field (treated as null): a default and
 * one closure-free step (`mapped`), where `serverString.nullable().optional().transform(…)` had two
 * and a pipe between them (issue 27: five such fields a line, 100,000 lines a listing;
 * test/api/list-item-schema.test.ts holds them equal).
 */
export const nullableServerString = mapped(z.string().nullable().default(null), (v) =>
  v == null ? null : sanitize(v),
);
export const nullableServerDate = mapped(z.string().nullable().default(null), (v) =>
  v == null ? null : parseServerDate(v),
);

/** Numbers as the contract says, or as numeric strings ("3", " 12 ", "2.5"): read liberally. */
export const serverNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*-?\d+(\.\d+)?\s*$/, 'expected a number')
    .transform(Number),
]);
/** Booleans, or "true"/"false" in any case. */
export const serverBoolean = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^\s*(true|false)\s*$/i, 'expected true or false')
    .transform((v) => v.trim().toLowerCase() === 'true'),
]);

// --- request-side rules, straight from the document's tables -------------------------------------

/** RFC 3986 "unreserved" characters: what the document's "RFC 3986 compliant" is read as. */
export const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;
const unreservedMessage = 'may use only letters, digits and - . _ ~';

export const USERNAME_MIN = 12;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 14;
export const PASSWORD_MAX = 30;
export const LABEL_MAX = 30;
export const CONNECTIONS_MIN = 1;
export const CONNECTIONS_MAX = 6;
export const REGULAR_DURATIONS = [1, 3, 6, 12] as const;
export const TRIAL_DURATIONS = [12, 24, 48] as const;

export const username = lazySchema(() =>
  z
    .string()
    .min(USERNAME_MIN, `Username needs at least ${USERNAME_MIN} characters`)
    .max(USERNAME_MAX, `Username allows at most ${USERNAME_MAX} characters`)
    .regex(UNRESERVED, `Username ${unreservedMessage}`),
);

export const password = lazySchema(() =>
  z
    .string()
    .min(PASSWORD_MIN, `Password needs at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `Password allows at most ${PASSWORD_MAX} characters`)
    .regex(UNRESERVED, `Password ${unreservedMessage}`),
);

export const label = lazySchema(() =>
  z.string().max(LABEL_MAX, `Label allows at most ${LABEL_MAX} characters`),
);

export const connections = lazySchema(() =>
  z
    .number({ error: 'Connections must be a whole number from 1 to 6' })
    .int('Connections must be a whole number from 1 to 6')
    .min(CONNECTIONS_MIN, 'Connections must be a whole number from 1 to 6')
    .max(CONNECTIONS_MAX, 'Connections must be a whole number from 1 to 6'),
);

/** The document leaves MAC validation unshown; we require six hex pairs (":" or "-"), as the form does. */
export const MAC_ADDRESS = /^[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}$/;
export const macaddress = lazySchema(() =>
  z.string().regex(MAC_ADDRESS, 'MAC address must be six hex pairs, e.g. 00:1A:79:12:34:56'),
);

export const parentalCode = lazySchema(() =>
  z.string().regex(/^\d{4}$/, 'Parental code must be exactly 4 digits'),
);

/** Durations arrive as numbers or numeric strings (the document shows both); always a number after. */
const numberLike = lazySchema(() =>
  z.union(
    [
      z.number(),
      z
        .string()
        .regex(/^\s*\d+\s*$/)
        .transform(Number),
    ],
    {
      error: 'Duration must be a number',
    },
  ),
);
export const regularDuration = lazySchema(() =>
  numberLike.pipe(z.literal(REGULAR_DURATIONS, { error: 'Duration must be 1, 3, 6 or 12 months' })),
);
export const trialDuration = lazySchema(() =>
  numberLike.pipe(z.literal(TRIAL_DURATIONS, { error: 'Trial duration must be 12, 24 or 48 hours' })),
);

export const uuid = lazySchema(() => z.uuid({ error: 'id must be a UUID' }));

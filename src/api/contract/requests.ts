import * as z from 'zod';
import { LINE_STATUSES, LINE_TYPES, ORDER_BY, ORDER_TYPES } from './choices';
import { lazySchema } from './lazy';
import {
  connections,
  label,
  macaddress,
  mapped,
  parentalCode,
  password,
  regularDuration,
  trialDuration,
  username,
  uuid,
} from './primitives';

export * from './choices';

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;

/** The longest search the list accepts (the app's own bound: a username is at most 30, an id 36). */
export const SEARCH_MAX = 200;

// Query values arrive as strings on the wire and as numbers from code: accept both. Every rule's
// message is a sentence naming its field: it is what the screen and a script show.
const queryInt = (message: string) =>
  z.union([z.number(), z.string().regex(/^\d+$/, message).transform(Number)], { error: message });
const oneOf = (field: string, values: readonly string[]) => ({
  error: `${field} must be one of ${values.join(', ')}`,
});

const OFFSET_RULE = 'Offset is a whole number, 0 or more';
const LIMIT_RULE = `A page holds ${LIMIT_MIN} to ${LIMIT_MAX} lines`;

export const ListLinesQuery = lazySchema(() =>
  z.object({
    // A default and a closure-free step (`mapped`), not `.transform()`: every request of a listing
    // is validated here (issue 27: docs/PERFORMANCE.md, "Listing every line").
    // (The step's output is a number; the field, a default's: omitted, null or a whole number.)
    offset: mapped(
      queryInt(OFFSET_RULE).pipe(z.number().int(OFFSET_RULE).min(0, OFFSET_RULE)).nullable().default(0),
      (v) => v ?? 0,
    ),
    limit: queryInt(LIMIT_RULE)
      .pipe(z.number().int(LIMIT_RULE).min(LIMIT_MIN, LIMIT_RULE).max(LIMIT_MAX, LIMIT_RULE))
      .default(LIMIT_DEFAULT),
    status: z.enum(LINE_STATUSES, oneOf('Status', LINE_STATUSES)).default('all'),
    type: z.enum(LINE_TYPES, oneOf('Type', LINE_TYPES)).default('all'),
    search: z.string().max(SEARCH_MAX, `A search is at most ${SEARCH_MAX} characters`).optional(),
    orderBy: z.enum(ORDER_BY, oneOf('Sort', ORDER_BY)).default('id'),
    orderType: z.enum(ORDER_TYPES, oneOf('Order', ORDER_TYPES)).default('asc'),
  }),
);
export type ListLinesQuery = z.input<typeof ListLinesQuery>;
export type ListLinesParams = z.output<typeof ListLinesQuery>;

const isIn = <T extends string>(values: readonly T[], v: unknown): v is T =>
  typeof v === 'string' && (values as readonly string[]).includes(v);

/**
 * A list query already in the schema's output form (whole numbers in range, known names, a search
 * within bounds, no other key) read without zod: what `ListLinesQuery` gives for it, the defaults'
 * keys filled in the schema's order (the query string follows it). null for anything else, which the
 * schema then reads and explains. A walk asks 1,000 pages of one query (issue 27): this is on the
 * way from one page's answer to the next page's request.
 */
export function plainListQuery(q: unknown): ListLinesParams | null {
  if (typeof q !== 'object' || q === null || Array.isArray(q)) return null;
  for (const k in q) if (!PLAIN_QUERY_KEYS.has(k)) return null;
  const {
    offset = 0,
    limit = LIMIT_DEFAULT,
    status = 'all',
    type = 'all',
    search,
  } = q as Record<string, unknown>;
  const { orderBy = 'id', orderType = 'asc' } = q as Record<string, unknown>;
  const o = offset === null ? 0 : offset;
  if (!(Number.isSafeInteger(o) && (o as number) >= 0)) return null;
  if (!(Number.isSafeInteger(limit) && (limit as number) >= LIMIT_MIN && (limit as number) <= LIMIT_MAX))
    return null;
  if (!isIn(LINE_STATUSES, status) || !isIn(LINE_TYPES, type)) return null;
  if (!isIn(ORDER_BY, orderBy) || !isIn(ORDER_TYPES, orderType)) return null;
  if (search !== undefined && !(typeof search === 'string' && search.length <= SEARCH_MAX)) return null;
  return {
    offset: o as number,
    limit: limit as number,
    status,
    type,
    ...(search !== undefined ? { search } : {}),
    orderBy,
    orderType,
  };
}
const PLAIN_QUERY_KEYS = new Set(['offset', 'limit', 'status', 'type', 'search', 'orderBy', 'orderType']);

export const PackagesQuery = lazySchema(() => z.object({ type: z.enum(LINE_TYPES).default('all') }));
export type PackagesQuery = z.input<typeof PackagesQuery>;

const creationFields = {
  username: username.optional(),
  password: password.optional(),
  label: label.optional(),
  macaddress: macaddress.optional(),
  parental_code: parentalCode.optional(),
  bouquets: z.array(z.number().int('Bouquet ids are whole numbers')).optional(),
  enabled: z.boolean().optional(),
};

/** POST /v1/lines and POST /v1/lines/simulate. */
export const CreateLineBody = lazySchema(() =>
  z.object({
    duration: regularDuration,
    connections: connections.optional(),
    ...creationFields,
  }),
);
export type CreateLineBody = z.input<typeof CreateLineBody>;

/** POST /v1/lines/trial and its simulation: connections belong to regular lines only. */
export const CreateTrialBody = lazySchema(() =>
  z.object({
    duration: trialDuration,
    connections: z.undefined({ error: 'Trial lines take no connections (regular lines only)' }).optional(),
    ...creationFields,
  }),
);
export type CreateTrialBody = z.input<typeof CreateTrialBody>;

const identificationFields = {
  id: uuid.optional(),
  username: z.string().min(1, 'Username must not be empty').optional(),
};
const needsIdOrUsername = (v: { id?: string | undefined; username?: string | undefined }) =>
  v.id !== undefined || v.username !== undefined;
const needsIdOrUsernameMessage = { error: 'Either id or username is required', path: ['id'] };

/** extend, upgrade, unsuspend and simulate upgrade identify the line by id or username. */
export const LineIdentification = lazySchema(() =>
  z.object(identificationFields).refine(needsIdOrUsername, needsIdOrUsernameMessage),
);
export type LineIdentification = z.input<typeof LineIdentification>;

export const ExtendBody = lazySchema(() =>
  z
    .object({ duration: regularDuration, ...identificationFields })
    .refine(needsIdOrUsername, needsIdOrUsernameMessage),
);
export type ExtendBody = z.input<typeof ExtendBody>;

export const UpgradeBody = lazySchema(() =>
  z
    .object({ new_connections: connections, ...identificationFields })
    .refine(needsIdOrUsername, needsIdOrUsernameMessage),
);
export type UpgradeBody = z.input<typeof UpgradeBody>;

/**
 * DELETE /v1/lines. Which field is required is "not shown": we ask for at least one of id or username
 * (a MAC address alone could match several lines), and when several are given they must all match.
 */
export const DeleteBody = lazySchema(() =>
  z
    .object({ ...identificationFields, macaddress: z.string({ error: 'MAC address is text' }).optional() })
    .refine(needsIdOrUsername, needsIdOrUsernameMessage),
);
export type DeleteBody = z.input<typeof DeleteBody>;

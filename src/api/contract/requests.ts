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

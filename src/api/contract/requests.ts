import * as z from 'zod';
import {
  connections,
  label,
  macaddress,
  parentalCode,
  password,
  regularDuration,
  trialDuration,
  username,
  uuid,
} from './primitives';

export const LINE_STATUSES = ['all', 'active', 'suspended', 'expiring'] as const;
export const LINE_TYPES = ['all', 'premium', 'trial'] as const;
export const ORDER_BY = ['id', 'username', 'enabled', 'exp_date'] as const;
export const ORDER_TYPES = ['asc', 'desc'] as const;
export type LineStatusFilter = (typeof LINE_STATUSES)[number];
export type LineTypeFilter = (typeof LINE_TYPES)[number];
export type OrderBy = (typeof ORDER_BY)[number];
export type OrderType = (typeof ORDER_TYPES)[number];

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;

// Query values arrive as strings on the wire and as numbers from code: accept both.
const queryInt = z.union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)]);

export const ListLinesQuery = z.object({
  offset: queryInt
    .pipe(z.number().int().min(0, 'offset must be 0 or more'))
    .nullish()
    .transform((v) => v ?? 0),
  limit: queryInt
    .pipe(z.number().int().min(LIMIT_MIN).max(LIMIT_MAX, `limit must be ${LIMIT_MIN} to ${LIMIT_MAX}`))
    .optional()
    .transform((v) => v ?? LIMIT_DEFAULT),
  status: z.enum(LINE_STATUSES).default('all'),
  type: z.enum(LINE_TYPES).default('all'),
  search: z.string().max(200).optional(),
  orderBy: z.enum(ORDER_BY).default('id'),
  orderType: z.enum(ORDER_TYPES).default('asc'),
});
export type ListLinesQuery = z.input<typeof ListLinesQuery>;
export type ListLinesParams = z.output<typeof ListLinesQuery>;

export const PackagesQuery = z.object({ type: z.enum(LINE_TYPES).default('all') });
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
export const CreateLineBody = z.object({
  duration: regularDuration,
  connections: connections.optional(),
  ...creationFields,
});
export type CreateLineBody = z.input<typeof CreateLineBody>;

/** POST /v1/lines/trial and its simulation: connections belong to regular lines only. */
export const CreateTrialBody = z.object({
  duration: trialDuration,
  connections: z.undefined({ error: 'Trial lines take no connections (regular lines only)' }).optional(),
  ...creationFields,
});
export type CreateTrialBody = z.input<typeof CreateTrialBody>;

const identificationFields = { id: uuid.optional(), username: z.string().min(1).optional() };
const needsIdOrUsername = (v: { id?: string | undefined; username?: string | undefined }) =>
  v.id !== undefined || v.username !== undefined;
const needsIdOrUsernameMessage = { error: 'Either id or username is required', path: ['id'] };

/** extend, upgrade, unsuspend and simulate upgrade identify the line by id or username. */
export const LineIdentification = z
  .object(identificationFields)
  .refine(needsIdOrUsername, needsIdOrUsernameMessage);
export type LineIdentification = z.input<typeof LineIdentification>;

export const ExtendBody = z
  .object({ duration: regularDuration, ...identificationFields })
  .refine(needsIdOrUsername, needsIdOrUsernameMessage);
export type ExtendBody = z.input<typeof ExtendBody>;

export const UpgradeBody = z
  .object({ new_connections: connections, ...identificationFields })
  .refine(needsIdOrUsername, needsIdOrUsernameMessage);
export type UpgradeBody = z.input<typeof UpgradeBody>;

/**
 * DELETE /v1/lines. Which field is required is "not shown": we ask for at least one of id or username
 * (a MAC address alone could match several lines), and when several are given they must all match.
 */
export const DeleteBody = z
  .object({ ...identificationFields, macaddress: z.string().optional() })
  .refine(needsIdOrUsername, needsIdOrUsernameMessage);
export type DeleteBody = z.input<typeof DeleteBody>;

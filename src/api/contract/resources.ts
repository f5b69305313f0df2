import * as z from 'zod';
import { nullable, serverDate, serverString } from './primitives';

/** Line, list form: `macaddress` and `parental_code` are omitted from list items. Extra fields ignored. */
export const LineListItem = z.object({
  id: serverString,
  hostname: nullable(serverString),
  username: serverString,
  password: serverString,
  label: serverString.optional().transform((v) => v ?? ''),
  enabled: z.boolean(),
  connections: z.number(),
  is_trial: z.boolean(),
  exp_date: nullable(serverDate),
  start_date: nullable(serverDate),
  created_at: nullable(serverDate),
});
export type LineListItem = z.output<typeof LineListItem>;

/** Line, single-line form (create, extend, upgrade, unsuspend). */
export const Line = LineListItem.extend({
  macaddress: nullable(serverString),
  parental_code: nullable(serverString),
});
export type Line = z.output<typeof Line>;

export const Package = z.object({
  id: z.number().int(),
  package_name: serverString,
  duration: z.number(),
  is_trial: z.boolean(),
  credits_cost: z.number(),
  extra_connection_credits_cost: z.number(),
  min_balance: z.number(),
});
export type Package = z.output<typeof Package>;

export const PackagesResponse = z.object({ packages: z.array(Package) });
export type PackagesResponse = z.output<typeof PackagesResponse>;

export const Account = z.object({
  email: serverString,
  credits: z.number(),
  lines_count: z.number(),
  server_information: z.object({
    hostname: serverString,
    mag_portal_url: serverString,
  }),
});
export type Account = z.output<typeof Account>;

export const Bouquet = z.object({ id: z.number(), label: serverString });
export type Bouquet = z.output<typeof Bouquet>;

export const BouquetsResponse = z.object({ channels: z.array(Bouquet), movies: z.array(Bouquet) });
export type BouquetsResponse = z.output<typeof BouquetsResponse>;

export const LinesPage = z.object({
  offset: z.number().int().min(0),
  limit: z.number().int().min(1),
  totalHits: z.number(),
  totalReturns: z.number(),
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
  nextOffset: z.number().int().min(0).nullable(),
  previousOffset: z.number().int().min(0).nullable(),
  lines: z.array(LineListItem),
});
export type LinesPage = z.output<typeof LinesPage>;

/** Create, trial, extend and upgrade all answer with the line and what was charged. */
export const LineChargeResponse = z.object({
  line: Line,
  deducedCredits: z.number(),
  newBalance: z.number(),
});
export type LineChargeResponse = z.output<typeof LineChargeResponse>;

export const CostResponse = z.object({ cost: z.number() });
export type CostResponse = z.output<typeof CostResponse>;

export const DeleteResponse = z.object({ success: z.boolean() });
export type DeleteResponse = z.output<typeof DeleteResponse>;

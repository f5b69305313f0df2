/**
 * The list's filter and sort values, without zod: the command line's spec (commands/spec.ts) offers
 * them before any schema is needed (`--help`, `--version` and argument errors build none).
 */
export const LINE_STATUSES = ['all', 'active', 'suspended', 'expiring'] as const;
export const LINE_TYPES = ['all', 'premium', 'trial'] as const;
export const ORDER_BY = ['id', 'username', 'enabled', 'exp_date'] as const;
export const ORDER_TYPES = ['asc', 'desc'] as const;
export type LineStatusFilter = (typeof LINE_STATUSES)[number];
export type LineTypeFilter = (typeof LINE_TYPES)[number];
export type OrderBy = (typeof ORDER_BY)[number];
export type OrderType = (typeof ORDER_TYPES)[number];

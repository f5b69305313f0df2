import { LINE_STATUSES, type LineStatusFilter } from '../api/contract/choices';

/** The status filters of the lines browser and `linedesk lines`: the API's, and `expired`, a view
 *  built here (services/expired-view.ts) because the API has no filter for it. No zod: the command
 *  line's spec offers them before any schema is built. */
export const STATUS_VIEWS = [...LINE_STATUSES, 'expired'] as const;
export type StatusView = LineStatusFilter | 'expired';

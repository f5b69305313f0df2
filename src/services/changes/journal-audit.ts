import type { Line, LineListItem } from '../../api/contract';
import type { BulkJob, BulkLine } from '../../domain/bulk';
import type { JournalEntry, JournalOutcome } from './journal';

type Audit = Pick<
  JournalEntry,
  'months' | 'connectionsBefore' | 'connectionsAfter' | 'expiryBefore' | 'expiryAfter'
>;

const iso = (ms: number | null | undefined) =>
  ms == null || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();

/**
 * What a journal entry says was bought: the months (create, extend), the connections before and
 * after (upgrade, create), the expiry before and after. "After" is written only for an applied
 * change (the server's line when it returned one, else the plan); a change not applied changed nothing.
 */
export function auditOf(
  job: BulkJob,
  l: BulkLine,
  outcome: JournalOutcome,
  server?: Line | LineListItem,
): Audit {
  const out: { -readonly [K in keyof Audit]: Audit[K] } = {};
  const creates = job.op === 'create' || job.op === 'trial';
  if (job.op === 'extend' || job.op === 'create') out.months = job.months;
  if (!creates) {
    out.connectionsBefore = l.before.connections;
    const before = iso(l.before.expMs) ?? l.before.expRaw ?? undefined;
    if (before) out.expiryBefore = before;
  }
  if (outcome === 'applied' && job.op !== 'delete') {
    out.connectionsAfter =
      server?.connections ?? l.after.connections ?? (creates ? job.connections : l.before.connections);
    const after = iso(server?.exp_date?.ms) ?? server?.exp_date?.raw ?? iso(l.after.expMs);
    if (after) out.expiryAfter = after;
  }
  return out;
}

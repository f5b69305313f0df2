import type { LineListItem } from '../../src/api/contract';
import { type BulkJob, type BulkLine, toBulkLine } from '../../src/domain/bulk';

/**
 * A job extending `lines` by a month on the test store's account ('sandbox:test'), made now; `over`
 * sets what the test is about (the balance before, the connections…).
 */
export const extendJob = (id: string, lines: readonly BulkLine[], over: Partial<BulkJob> = {}): BulkJob => ({
  id,
  op: 'extend',
  months: 1,
  connections: 1,
  target: 'sandbox:test',
  createdAt: new Date().toISOString(),
  ...over,
  lines,
});

/** A listed line as a job's line, pending, its cost its connections (a month's price on the sandbox). */
export const jobLine = (line: LineListItem, over: Partial<BulkLine> = {}): BulkLine => ({
  ...toBulkLine(line),
  cost: line.connections,
  ...over,
});

/** Bulk jobs as data: what each marked line will get, what it costs, and where it stands. */
import type { LineListItem, Package } from '../api/contract';
import { extendEstimate, extendedExpiry } from './estimate';
import type { Months } from './steps';

export type BulkOp = 'extend' | 'upgrade' | 'unsuspend' | 'delete';
/** `sending`: written to disk before the request leaves, so a crash leaves it to be checked. */
export type BulkLineState = 'pending' | 'sending' | 'done' | 'failed' | 'unknown' | 'skipped';

export interface BulkLine {
  readonly id: string;
  readonly username: string;
  readonly before: {
    readonly expMs: number | null;
    readonly connections: number;
    readonly enabled: boolean;
    readonly isTrial: boolean;
  };
  /** Quoted (upgrade) or estimated (extend) cost; null while unknown. */
  readonly cost: number | null;
  readonly after: { readonly expMs?: number; readonly connections?: number };
  readonly state: BulkLineState;
  readonly detail?: string;
  readonly deducedCredits?: number;
  readonly newBalance?: number;
}

export interface BulkJob {
  readonly id: string;
  readonly op: BulkOp;
  readonly months: Months;
  readonly connections: number;
  /** The service's base URL: a job resumes only against the service it started on. */
  readonly target: string;
  readonly createdAt: string;
  readonly lines: readonly BulkLine[];
}

export const FINAL: ReadonlySet<BulkLineState> = new Set(['done', 'failed', 'skipped']);

export function toBulkLine(l: LineListItem): BulkLine {
  return {
    id: l.id,
    username: l.username,
    before: {
      expMs: l.exp_date?.ms ?? null,
      connections: l.connections,
      enabled: l.enabled,
      isTrial: l.is_trial,
    },
    cost: null,
    after: {},
    state: 'pending',
  };
}

/** The plan for one line: its new values and cost where the app can compute them (not upgrade). */
export function planLine(
  line: BulkLine,
  op: BulkOp,
  params: { months: Months; connections: number },
  packages: readonly Package[],
  nowMs: number,
): BulkLine {
  const base = { ...line, state: 'pending' as const, detail: undefined as string | undefined };
  switch (op) {
    case 'extend': {
      const est = extendEstimate(packages, params.months, line.before.connections);
      if (line.before.isTrial)
        return { ...base, cost: 0, state: 'skipped', detail: 'trial lines are not extended' };
      return {
        ...base,
        cost: est?.cost ?? null,
        after: { expMs: extendedExpiry(line.before.expMs, params.months, nowMs) },
      };
    }
    case 'upgrade':
      if (line.before.isTrial)
        return { ...base, cost: 0, state: 'skipped', detail: 'trial lines have one connection' };
      if (line.before.connections === params.connections) {
        return { ...base, cost: 0, state: 'skipped', detail: `already ${params.connections} connections` };
      }
      return { ...base, cost: null, after: { connections: params.connections } };
    case 'unsuspend':
      return line.before.enabled
        ? { ...base, cost: 0, state: 'skipped', detail: 'not suspended' }
        : { ...base, cost: 0 };
    case 'delete':
      return { ...base, cost: 0 };
  }
}

/** Lines the balance covers, taken in order; the rest are not affordable. */
export function affordability(lines: readonly BulkLine[], balance: number) {
  let total = 0;
  let spent = 0;
  const affordable = new Set<string>();
  for (const l of lines) {
    if (l.state === 'skipped') continue;
    const c = l.cost ?? 0;
    total += c;
    if (spent + c <= balance) {
      spent += c;
      affordable.add(l.id);
    }
  }
  const considered = lines.filter((l) => l.state !== 'skipped').length;
  return { total, affordable, considered, fitsAll: total <= balance };
}

export interface BulkProgress {
  readonly done: number;
  readonly failed: number;
  readonly unknown: number;
  readonly remaining: number;
  readonly skipped: number;
  readonly credits: number;
  readonly ratePerSec: number;
  readonly etaSec: number | null;
}

export function progressOf(job: BulkJob, elapsedMs: number): BulkProgress {
  let done = 0;
  let failed = 0;
  let unknown = 0;
  let remaining = 0;
  let skipped = 0;
  let credits = 0;
  for (const l of job.lines) {
    if (l.state === 'done') done++;
    else if (l.state === 'failed') failed++;
    else if (l.state === 'skipped') skipped++;
    else if (l.state === 'unknown') unknown++;
    else remaining++;
    credits += l.deducedCredits ?? 0;
  }
  const finished = done + failed;
  const ratePerSec = elapsedMs > 0 ? (finished * 1000) / elapsedMs : 0;
  return {
    done,
    failed,
    unknown,
    remaining,
    skipped,
    credits,
    ratePerSec,
    etaSec: ratePerSec > 0 ? (remaining + unknown) / ratePerSec : null,
  };
}

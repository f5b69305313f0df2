/**
 * The rules of a change, applied: the rules that need no cost first (the line, the numbers chosen,
 * a line whose earlier change is open), then, once a cost is known, the balance and `min_balance`.
 * Both front-ends ask here and get a `Refusal` (domain/change-rules.ts): the screens show its
 * message, the commands print it and map its field to their JSON path.
 */
import type { CreateLineBody, CreateTrialBody, Line, LineListItem, Package } from '../../api/contract';
import { affordability, type BulkJob, pendingCounts, SPENDS } from '../../domain/bulk';
import { belowMinimum, type ChangeOp, lineRefusal, type Refusal, refusal } from '../../domain/change-rules';
import { credits } from '../../domain/format';
import type { Months } from '../../domain/steps';
import { type OpenLines, openRefusal } from './open-lines';

/** One change to one line (or a new line's body): what the dialog and a script both describe. */
export interface Change {
  readonly op: ChangeOp;
  /** The line acted on (extend, upgrade, unsuspend, delete). */
  readonly line: LineListItem | Line | null;
  /** Create and trial: the exact body, as quoted and as sent. */
  readonly body: CreateLineBody | CreateTrialBody | null;
  readonly months: Months;
  readonly connections: number;
}

/** What the rules judge a change by, as far as it is known now. */
export interface Facts {
  /** The balance last read; undefined: not known (the balance rules wait). */
  readonly balance?: number | undefined;
  /** The quoted or estimated cost; undefined while none is known (the balance rules wait). */
  readonly cost?: number | undefined;
  /** The package the cost is of (its `min_balance`). */
  readonly pkg?: Package | null;
  /** Lines with an open change (unknown outcome, or held for another): no new change for them. */
  readonly open?: OpenLines;
}

/** The rules that need no cost: checked first, so a refusal never waits for a quote. */
export function validateRules(c: Change, open?: OpenLines): Refusal | null {
  if (c.line && open) {
    const o = openRefusal(open, c.line.id);
    if (o) return o;
  }
  if (!SPENDS.has(c.op)) return null;
  const rule = lineRefusal(c.op, c.line);
  if (rule) return rule;
  if (c.op === 'upgrade' && c.connections === c.line?.connections) return refusal('sameConnections');
  return null;
}

/** The rules a known cost decides (we read `min_balance` as "at least the larger of cost and it"). */
export function validateCost(c: Change, f: Facts): Refusal | null {
  if (!SPENDS.has(c.op) || f.cost === undefined || f.balance === undefined) return null;
  if (f.cost > f.balance) return refusal('balanceTooLow');
  if (f.pkg && f.balance < f.pkg.min_balance)
    return refusal('belowMinimum', belowMinimum(credits(f.pkg.min_balance)));
  return null;
}

/** Every rule, in order; read-only last, after what the change itself rules out. */
export function validate(c: Change, f: Facts = {}): Refusal | null {
  return validateRules(c, f.open) ?? validateCost(c, f);
}

/**
 * A planned job's rules: something to do, every cost known, and a total the balance covers (unless
 * only the affordable lines go). `balance` undefined: not known (not read yet, or its read failed).
 * Then only the affordable lines cannot go (none can be picked); all of them may (the service
 * refuses a line the balance does not cover and charges nothing for it), and a front-end says so.
 */
export function validateJob(
  job: BulkJob,
  f: { readonly balance?: number | undefined; readonly onlyAffordable?: boolean },
): Refusal | null {
  const { pending, costUnknown } = pendingCounts(job.lines);
  if (!pending) return refusal('nothingToDo');
  if (costUnknown) return refusal('costUnknown');
  if (f.onlyAffordable && f.balance === undefined && SPENDS.has(job.op)) return refusal('balanceUnknown');
  if (f.balance !== undefined && !f.onlyAffordable && !affordability(job.lines, f.balance).fitsAll)
    return refusal('totalExceeds');
  return null;
}

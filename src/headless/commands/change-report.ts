/** What a change command prints: the quote before it is sent, the outcome of each line after. */
import type { Line, LineListItem } from '../../api/contract';
import { type BulkJob, type BulkLine, SPENDS } from '../../domain/bulk';
import { counted, credits, creditsText } from '../../domain/format';
import type { Column } from '../../present/lines-columns';
import { type Outcome, outcomeOf } from '../../services/changes/outcome';
import { EXIT } from '../failure';
import { lineRecord, type Row, tableText } from '../format';
import type { Output } from '../output';

interface QuoteRow {
  readonly id: string | null;
  readonly username: string;
  readonly change: string;
  /** Credits; null when unknown. */
  readonly cost: number | null;
  readonly note: string;
  /** Will not be sent (trial lines are not extended; an earlier change still unknown…). */
  readonly skipped: boolean;
}

/** The service a change runs on, in its JSON: a script can tell the sandbox from a real account. */
interface TargetInfo {
  readonly kind: 'sandbox' | 'remote';
  readonly label: string;
}

export interface Quote {
  readonly op: BulkJob['op'];
  readonly target: TargetInfo;
  readonly rows: readonly QuoteRow[];
  /** Extend's cost is the app's estimate from the package prices (no simulate endpoint). */
  readonly estimate: boolean;
  readonly total: number;
  readonly balance: number | null;
  /** What a delete throws away that the total does not say: the paid time the lines still have. */
  readonly lost?: string | null;
}

export function changeText(
  op: BulkJob['op'],
  job: Pick<BulkJob, 'months' | 'connections'>,
  l?: BulkLine,
): string {
  switch (op) {
    case 'extend':
      return `+${counted(job.months, 'month')}`;
    case 'upgrade':
      return `${l ? `${l.before.connections} → ` : ''}${counted(job.connections, 'connection')}`;
    case 'create':
      return `new line`;
    case 'trial':
      return 'new trial line';
    default:
      return op;
  }
}

const QUOTE_COLUMNS: readonly Column<QuoteRow>[] = [
  { id: 'username', header: 'USERNAME', width: { min: 16, flex: 2, max: 32 }, cell: (r) => r.username },
  { id: 'change', header: 'CHANGE', width: { min: 10, flex: 1 }, cell: (r) => r.change },
  {
    id: 'cost',
    header: 'COST',
    width: 8,
    align: 'right',
    cell: (r) => (r.cost === null ? '?' : creditsText(r.cost)),
  },
  { id: 'note', header: 'NOTE', width: { min: 8, flex: 2 }, cell: (r) => r.note },
];

/** The quote: one row per line, then the total against the balance (on stderr for people). */
export async function printQuote(out: Output, q: Quote, asData: boolean, json: boolean): Promise<void> {
  const after = q.balance === null ? null : q.balance - q.total;
  const spends = SPENDS.has(q.op);
  const cost = !spends
    ? 'free, nothing is charged'
    : `${credits(q.total)}${q.estimate ? ' (an estimate from the package prices: extend has no server quote)' : ' (quoted by the server)'}`;
  if (json) {
    if (asData)
      await out.data(
        `${JSON.stringify(
          {
            op: q.op,
            target: q.target,
            sent: false,
            estimate: q.estimate,
            total: q.total,
            balance: q.balance,
            balanceAfter: after,
            ...(q.lost ? { lost: q.lost } : {}),
            lines: q.rows.map((r) => ({
              id: r.id,
              username: r.username,
              change: r.change,
              cost: r.cost,
              skipped: r.skipped,
              note: r.note || null,
            })),
          },
          null,
          2,
        )}\n`,
      );
    return;
  }
  const table = tableText(out, QUOTE_COLUMNS, q.rows, 0);
  if (asData) await out.data(table);
  else for (const l of table.trimEnd().split('\n')) out.message(l, 'dim');
  out.message(
    `${q.op} ${counted(q.rows.filter((r) => !r.skipped).length, 'line')}: ${cost}${
      q.balance === null || !spends ? '' : `; balance ${creditsText(q.balance)} → ${creditsText(after!)}`
    }`,
  );
  if (q.lost) out.message(q.lost, 'yellow');
}

interface ResultRow extends Row {
  readonly id: string | null;
  readonly username: string;
  readonly outcome: Outcome;
  readonly charged: number | null;
  readonly charge: string | null;
  readonly newBalance: number | null;
  readonly detail: string | null;
}

const resultRow = (l: BulkLine): ResultRow => ({
  id: l.id.startsWith('new:') ? null : l.id,
  username: l.username,
  outcome: outcomeOf(l),
  charged: l.deducedCredits ?? null,
  charge: l.charge ?? null,
  newBalance: l.newBalance ?? null,
  detail: l.detail ?? null,
});

const RESULT_COLUMNS: readonly Column<ResultRow>[] = [
  { id: 'username', header: 'USERNAME', width: { min: 16, flex: 2, max: 32 }, cell: (r) => r.username },
  {
    id: 'outcome',
    header: 'OUTCOME',
    width: 11,
    cell: (r) => r.outcome,
    tone: (r) =>
      r.outcome === 'applied'
        ? 'tone.success'
        : r.outcome === 'unknown' || r.outcome === 'refused'
          ? 'tone.error'
          : undefined,
  },
  {
    id: 'charged',
    header: 'CHARGED',
    width: 8,
    align: 'right',
    cell: (r) =>
      r.charged === null
        ? r.outcome === 'applied' && r.charge === 'unknown'
          ? '?'
          : ''
        : creditsText(r.charged),
  },
  { id: 'detail', header: 'DETAIL', width: { min: 8, flex: 3 }, cell: (r) => r.detail ?? '' },
];

/** The outcome of every line on stdout; a created line comes with its credentials. */
export async function printResults(
  out: Output,
  job: BulkJob,
  opts: {
    json: boolean;
    created?: Line | LineListItem | undefined;
    notFound: readonly string[];
    /** Of `notFound`, those not proven absent (not looked up, or not readable): maybe still there. */
    notProvenAbsent?: readonly string[];
    now: number;
    target: TargetInfo;
  },
): Promise<void> {
  const rows = job.lines.map(resultRow);
  if (opts.json) {
    const doc = {
      op: job.op,
      target: opts.target,
      sent: true,
      lines: rows,
      ...(opts.created ? { line: lineRecord(opts.created, opts.now) } : {}),
      notFound: opts.notFound,
      ...(opts.notProvenAbsent?.length ? { notProvenAbsent: opts.notProvenAbsent } : {}),
    };
    await out.data(`${JSON.stringify(doc, null, 2)}\n`);
    return;
  }
  const text = tableText(out, RESULT_COLUMNS, rows, 0);
  await out.data(text);
  if (opts.created) {
    const l = opts.created;
    await out.data(`username\t${l.username}\npassword\t${l.password}\nid\t${l.id}\n`);
  }
}

/**
 * The exit code a job's outcomes call for: unknown first; then failures mixed with applied lines
 * (partly done: re-running the whole input would charge the applied ones again); then failures.
 */
export function exitOf(job: BulkJob, notFound: number): number {
  const outcomes = job.lines.map(outcomeOf);
  // A line left alone because an earlier change to it is still unknown is unknown too.
  const heldBack = job.lines.some((l) => l.state === 'skipped' && l.heldBack);
  if (outcomes.includes('unknown') || heldBack) return EXIT.unknown;
  // Nothing reached the service (it could not be reached): the network's code, not a refusal's. A
  // refusal of this machine's own (an intent log it cannot read) is a failure, not the network's.
  const tried = job.lines.filter((l) => l.state !== 'skipped');
  if (
    notFound === 0 &&
    tried.length &&
    tried.every((l) => l.state === 'failed' && l.notSent && !l.refusedHere)
  )
    return EXIT.unreachable;
  const failed =
    notFound > 0 ||
    outcomes.some((o) => o === 'refused' || o === 'not applied' || o === 'cancelled' || o === 'not sent');
  if (failed) return outcomes.includes('applied') ? EXIT.partial : EXIT.failed;
  return EXIT.done;
}

/** One sentence for stderr: how the job ended. */
export function summaryText(job: BulkJob): string {
  const count = (o: Outcome) => job.lines.filter((l) => outcomeOf(l) === o).length;
  const spent = job.lines.reduce((n, l) => n + (l.deducedCredits ?? 0), 0);
  const parts = (
    ['applied', 'not applied', 'refused', 'not sent', 'unknown', 'skipped', 'cancelled'] as const
  )
    .map((o) => [o, count(o)] as const)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${n} ${o}`);
  return `${job.op}: ${parts.join(', ') || 'nothing done'}${SPENDS.has(job.op) ? `; ${credits(spent)} charged` : ''}.`;
}

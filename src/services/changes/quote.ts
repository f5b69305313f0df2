/**
 * What a change costs before it is sent: the server's quote (simulate endpoints: create, trial,
 * upgrade) or, for extend, which has none, an estimate from the package prices, labelled so. A bulk
 * job is planned line by line (domain/bulk.ts) and its upgrades quoted a few at a time.
 */
import type { CreateLineBody, CreateTrialBody, Package } from '../../api/contract';
import {
  type BulkJob,
  type BulkLine,
  type BulkOp,
  pendingPlaces,
  planKind,
  planLine,
  planLines,
  quotedLines,
  SPENDS,
} from '../../domain/bulk';
import { extendEstimate } from '../../domain/estimate';
import type { ServiceClient } from '../client';
import { describeError } from '../describe-error';
import { type OpenLines, openReason } from './open-lines';
import type { Change } from './validate';

export interface Quote {
  /** Credits. */
  readonly cost: number;
  /** The app's estimate from the package prices (extend), not a server quote. */
  readonly estimate: boolean;
  /** The package the cost is of, where the quote names one (extend's estimate). */
  readonly pkg: Package | null;
}

/** A quote, or why there is none: a sentence, and the error met (a server refusal names a field). */
export type QuoteResult = { readonly quote: Quote } | { readonly failure: string; readonly error: unknown };

/** The cost known without asking the server (extend's estimate, a change that costs nothing), or null. */
export function quoteLocally(c: Change, packages: readonly Package[]): QuoteResult | null {
  if (c.op === 'extend') {
    const est = extendEstimate(packages, c.months, c.line?.connections ?? 1);
    return est
      ? { quote: { cost: est.cost, estimate: true, pkg: est.pkg } }
      : { failure: 'No package of that duration', error: null };
  }
  if (!SPENDS.has(c.op)) return { quote: { cost: 0, estimate: false, pkg: null } };
  return null;
}

export async function quoteChange(
  client: ServiceClient,
  c: Change,
  packages: readonly Package[],
): Promise<QuoteResult> {
  const local = quoteLocally(c, packages);
  if (local) return local;
  try {
    const r =
      c.op === 'upgrade'
        ? await client.simulateUpgrade({ id: c.line!.id, new_connections: c.connections })
        : c.op === 'trial'
          ? await client.simulateTrial(c.body as CreateTrialBody)
          : await client.simulateCreate(c.body as CreateLineBody);
    return { quote: { cost: r.cost, estimate: false, pkg: null } };
  } catch (err) {
    return { failure: describeError(err), error: err };
  }
}

/**
 * A line's kind (what its plan's state and cost depend on) among `open`: whether it has an open
 * change, else its plan's kind. One function per open set: `planLines` reads a lines array's kinds
 * once per function, so the preview's next key reads them again only when the open set changed.
 */
const kindsIn = new WeakMap<OpenLines, (l: BulkLine) => string>();
function kindIn(open: OpenLines): (l: BulkLine) => string {
  let kind = kindsIn.get(open);
  if (!kind) {
    kind = (l) => (open.unsettled.has(l.id) ? 'open' : planKind(l));
    kindsIn.set(open, kind);
  }
  return kind;
}

/**
 * Every line of a job planned: its new values and cost where the app can compute them; a line with
 * an open change is left out, saying why (`planLines`: counted by kind, made when read).
 */
export function planJob(job: BulkJob, packages: readonly Package[], open: OpenLines, nowMs: number) {
  return planLines(
    job.lines,
    kindIn(open),
    (l): BulkLine =>
      open.unsettled.has(l.id)
        ? { ...l, cost: 0, state: 'skipped', detail: openReason(open, l.id)!, heldBack: true }
        : planLine(l, job.op as BulkOp, job, packages, nowMs),
  );
}

/**
 * The server's quotes of a planned upgrade's lines, four at a time; a line it gives none for is
 * `null` ("no quote"). Stops asking once `wanted` says the plan is stale.
 */
export async function quoteUpgrades(
  client: ServiceClient,
  planned: readonly BulkLine[],
  connections: number,
  wanted: () => boolean = () => true,
  logError?: (context: string, err: unknown) => void,
): Promise<readonly BulkLine[]> {
  // By place: lines made when read are made one by one as they are asked (each once: its id), not
  // all at each change of the connections (a key pressed in the preview); a plan gone stale stops and
  // is not made at all. The quotes are set by place too (`quotedLines`): no other line is made.
  const todo = pendingPlaces(planned);
  const quotes = new Map<number, number | null>();
  let next = 0;
  const worker = async () => {
    while (next < todo.length && wanted()) {
      const at = todo[next++]!;
      const { id } = planned[at]!;
      try {
        quotes.set(at, (await client.simulateUpgrade({ id, new_connections: connections })).cost);
      } catch (err) {
        quotes.set(at, null);
        logError?.('bulk quote', err);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  if (!wanted()) return planned;
  return quotedLines(planned, quotes);
}

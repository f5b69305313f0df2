/**
 * Change jobs as data: what each line will get, what it costs, and where it stands. A bulk edit is a
 * job of many lines; a single change (create included) is a job of one.
 */

import type { CreateLineBody, CreateTrialBody, LineListItem, Package } from '../api/contract';
import { type ChangeOp, RULES } from './change-rules';
import { extendEstimate, extendedExpiry } from './estimate';
import { absoluteText, counted, countText, daysUntil } from './format';
import type { Months } from './steps';

export type { ChangeOp };
/** What a marked set of lines can have done to it. */
export type BulkOp = Exclude<ChangeOp, 'create' | 'trial'>;
/** The operations that spend credits. */
export const SPENDS: ReadonlySet<ChangeOp> = new Set(['create', 'trial', 'extend', 'upgrade']);
/**
 * `sending`: written to disk before the request leaves, so a crash leaves it to be checked.
 * `unknown`: it may have reached the server; only the server's evidence moves it on.
 * `cancelled`: never sent, because the user cancelled the job.
 */
export type BulkLineState = 'pending' | 'sending' | 'done' | 'failed' | 'unknown' | 'skipped' | 'cancelled';
/**
 * How a charge is known: from the server's reply; from the balance (one line confirmed by a check);
 * as a share of the balance's fall (several lines confirmed by a check); or not at all (yet).
 */
export type ChargeSource = 'reply' | 'balance' | 'share' | 'unknown';

export interface BulkLine {
  /** The line's id; for a line being created, `new:<username>` until the server names it. */
  readonly id: string;
  readonly username: string;
  /** Create and trial: the exact body, as quoted and as sent. */
  readonly body?: CreateLineBody | CreateTrialBody;
  readonly before: {
    readonly expMs: number | null;
    /** The expiry as the server wrote it: compared as text when it could not be parsed. */
    readonly expRaw?: string | null;
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
  /** Set once the line is done on a credit-spending job. */
  readonly charge?: ChargeSource;
  /**
   * Not applied, proven by the server (a refusal, or a check): a retry is safe. Never set by the
   * user's verdict (`settledAfterUnknown: 'by hand'`), which is their word, not proof.
   */
  readonly provenNotApplied?: boolean;
  /**
   * Never left this machine: the connection to the service could not be made (refused, DNS, the
   * connect deadline). Not a refusal by the service: it has nothing to say about the line.
   */
  readonly notSent?: boolean;
  /**
   * Not sent because this machine refused it before anything left (the intent log could not be read
   * or written for it): the service was never asked, but it may well be reachable. Retryable only when
   * also `provenNotApplied` (its job's file is gone); one whose file stays with the line pending (it
   * could not be taken back out after a failed begin, or ended after its record was refused) never is
   * from here: the next start offers it from that file.
   */
  readonly refusedHere?: boolean;
  /**
   * Sent, but its last record was refused by the intent log, and its job's file stays: the next start
   * checks it from the record there (sending, unknown). Its outcome here is as the service gave it
   * (or the user settled it), but it is never retried from here meanwhile. Never written to disk.
   */
  readonly keptOnDisk?: true;
  /** When its request left (epoch ms), written down before it did: the hold window counts from it. */
  readonly sentAt?: number;
  /**
   * The line shows the change, but another client's change of the same line may be what it shows
   * (another linedesk's open change of it): "applied, possibly by another client", charge unknown.
   */
  readonly maybeOther?: string;
  /**
   * Skipped because an earlier change to the line is still open (its outcome unknown, or another
   * linedesk's): the job did not settle it, so a script's exit says "unknown" (3), not "done".
   */
  readonly heldBack?: boolean;
  /**
   * Skipped because, read again just before sending, the line was not as the job had it: `changed`
   * (its plan changed, or it read older than its marks: it stays marked, to review and run again) or
   * `gone` (not found: deleted or moved; it leaves the marks). Kept in the intent log; what the
   * screens and the resume offer go by, never the detail's words (an earlier version's file has only
   * those: services/changes/fresh-lines.ts `asReadFromWords` reads them once, as it is loaded).
   */
  readonly notSentAsRead?: 'changed' | 'gone';
  /**
   * Settled after its outcome was unknown: by a check with the server (`checked`: the engine, from
   * the verdict's evidence) or by the user (`by hand`). What the resume offer goes by to list a line
   * that was open, never the detail's words.
   */
  readonly settledAfterUnknown?: 'checked' | 'by hand';
}

export interface BulkJob {
  readonly id: string;
  readonly op: ChangeOp;
  readonly months: Months;
  readonly connections: number;
  /** The service and account it started on (Target.id): a job is checked only by that account. */
  readonly target: string;
  readonly createdAt: string;
  /** The balance just before the first request, read from the server: the judge of what was charged. */
  readonly balanceBefore?: number | null;
  readonly lines: readonly BulkLine[];
}

/**
 * A failed line the server proved not applied by a check (its verdict's words begin so; a refusal
 * and a request never sent are failed too, but say otherwise), or the user settled as not applied
 * (`settledAfterUnknown: 'by hand'`: what is said of it says so). The one reading of those words.
 */
export const checkedNotApplied = (l: BulkLine): boolean =>
  l.state === 'failed' && !l.notSent && /^not applied/.test(l.detail ?? '');

/**
 * A line a retry may send again: proven not applied by the service (a refusal, a check), settled as
 * not applied by the user (their word: they decided), or cancelled before it was sent. Unknown lines
 * never are: they are checked; nor one whose file stays with an earlier record of it (`keptOnDisk`).
 */
export const retryable = (l: BulkLine): boolean =>
  !l.keptOnDisk &&
  ((l.state === 'failed' && (l.provenNotApplied === true || l.settledAfterUnknown === 'by hand')) ||
    l.state === 'cancelled');

export const FINAL: ReadonlySet<BulkLineState> = new Set(['done', 'failed', 'skipped', 'cancelled']);
/** States whose outcome the server has not yet settled. */
export const OPEN: ReadonlySet<BulkLineState> = new Set(['sending', 'unknown']);

/**
 * A job's lines made when read: `A` marks 100,000 lines and the bulk preview plans every one, but
 * draws a screenful. Made from the marks (and planned) line by line as they are read, it holds no
 * object per line; its counts and totals are kept per array (below) like any lines array's.
 * It reads as the array it stands for (indices, length, iteration, `slice`, `map`…); a job that
 * runs is given the lines made once (`madeLines`): the change engine never sees it.
 */
interface LazySource {
  readonly at: (i: number) => BulkLine;
  /** Where the line of an id is (-1: none), when the source knows without making the lines. */
  readonly indexOf?: ((id: string) => number) | undefined;
  /** Planned lines (`planLines`): the lines they were planned from, which a new plan starts from. */
  readonly from?: readonly BulkLine[];
}
const lazySources = new WeakMap<readonly BulkLine[], LazySource>();

const isIndex = (key: string | symbol, length: number): number => {
  if (typeof key !== 'string') return -1;
  const i = Number(key);
  return Number.isInteger(i) && i >= 0 && i < length && String(i) === key ? i : -1;
};

export function lazyLines(
  length: number,
  at: (i: number) => BulkLine,
  indexOf?: (id: string) => number,
): readonly BulkLine[] {
  return lazyOf(length, { at, indexOf });
}

function lazyOf(length: number, source: LazySource): readonly BulkLine[] {
  const { at } = source;
  // A sparse array of that length: an array to `Array.isArray`, no element stored.
  const target: BulkLine[] = [];
  target.length = length;
  const lines = new Proxy(target, {
    get(t, key, receiver) {
      const i = isIndex(key, length);
      return i < 0 ? Reflect.get(t, key, receiver) : at(i);
    },
    has(t, key) {
      return isIndex(key, length) >= 0 || Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      const i = isIndex(key, length);
      return i < 0
        ? Reflect.getOwnPropertyDescriptor(t, key)
        : { value: at(i), writable: false, enumerable: true, configurable: true };
    },
    ownKeys(t) {
      return [...Array.from({ length }, (_, i) => String(i)), ...Reflect.ownKeys(t)];
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  lazySources.set(lines, source);
  return lines;
}

/** `lines` as an array of objects made once (what a job that runs, or is saved, is given). */
export function madeLines(lines: readonly BulkLine[]): readonly BulkLine[] {
  const from = lazySources.get(lines);
  return from ? Array.from({ length: lines.length }, (_, i) => from.at(i)) : lines;
}

export function toBulkLine(l: LineListItem): BulkLine {
  return {
    id: l.id,
    username: l.username,
    before: {
      expMs: l.exp_date?.ms ?? null,
      expRaw: l.exp_date?.raw ?? null,
      connections: l.connections,
      enabled: l.enabled,
      isTrial: l.is_trial,
    },
    cost: null,
    after: {},
    state: 'pending',
  };
}

/**
 * A line as before any run: what it is (id, username, body, what it was before), nothing a run wrote
 * on it (when it was sent, how it was charged, why it was skipped, how it was settled). A retry sends
 * its lines as if for the first time: a mark of the earlier run kept would be read as this run's.
 */
export function unrunLine(l: BulkLine): BulkLine {
  return {
    id: l.id,
    username: l.username,
    ...(l.body ? { body: l.body } : {}),
    before: l.before,
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
  const base = { ...line, state: 'pending' as const, detail: undefined as string | undefined, after: {} };
  switch (op) {
    case 'extend': {
      const est = extendEstimate(packages, params.months, line.before.connections);
      if (line.before.isTrial) return { ...base, cost: 0, state: 'skipped', detail: RULES.trialExtend };
      return {
        ...base,
        cost: est?.cost ?? null,
        // An expiry the server sent but we could not read is not counted from today: left unknown.
        after:
          line.before.expMs === null && line.before.expRaw
            ? {}
            : { expMs: extendedExpiry(line.before.expMs, params.months, nowMs) },
      };
    }
    case 'upgrade':
      if (line.before.isTrial) return { ...base, cost: 0, state: 'skipped', detail: RULES.trialUpgrade };
      if (line.before.connections === params.connections) {
        return { ...base, cost: 0, state: 'skipped', detail: `already ${params.connections} connections` };
      }
      return { ...base, cost: null, after: { connections: params.connections } };
    case 'unsuspend':
      return line.before.enabled
        ? { ...base, cost: 0, state: 'skipped', detail: 'not suspended' }
        : { ...base, cost: 0 };
    case 'delete': {
      // Costs nothing and refunds nothing: the paid time it throws away is what it costs.
      const lost = paidTimeLost(line.before, nowMs);
      return { ...base, cost: 0, ...(lost === null ? {} : { detail: lostText(lost) }) };
    }
  }
}

/**
 * What a line's plan (`planLine`) decides its state and cost by, as a key: whether it is a trial,
 * whether it is enabled, its connections. Lines of one kind are planned to the same state and cost
 * (its new expiry and its detail may differ), so a plan is counted from the kinds (`planLines`).
 * A field `planLine` comes to read for its state or cost belongs here too.
 */
export const planKind = (l: BulkLine): string =>
  `${l.before.isTrial ? 't' : ''}${l.before.enabled ? 'e' : ''}${l.before.connections}`;

/**
 * A lines array's kinds (`planLines`), read once per lines and kind function: each line's kind by
 * place, one line of each kind, and the credits the lines have deduced (a plan carries them over).
 */
interface Kinds {
  readonly of: Uint32Array;
  readonly samples: readonly BulkLine[];
  readonly credits: number;
}
const kindsKept = new WeakMap<readonly BulkLine[], WeakMap<(l: BulkLine) => string, Kinds>>();

function kindsOf(lines: readonly BulkLine[], kind: (l: BulkLine) => string): Kinds {
  const kept = kindsKept.get(lines)?.get(kind);
  if (kept) return kept;
  const of = new Uint32Array(lines.length);
  const places = new Map<string, number>();
  const samples: BulkLine[] = [];
  let credits = 0;
  let i = 0;
  for (const l of lines) {
    const k = kind(l);
    let at = places.get(k);
    if (at === undefined) {
      at = samples.push(l) - 1;
      places.set(k, at);
    }
    of[i++] = at;
    credits += l.deducedCredits ?? 0;
  }
  const kinds = { of, samples, credits };
  const byKind = kindsKept.get(lines) ?? new WeakMap<(l: BulkLine) => string, Kinds>();
  byKind.set(kind, kinds);
  kindsKept.set(lines, byKind);
  return kinds;
}

/** Planned (or quoted) lines given as an array, not made when read: the lines they were planned from. */
const plainFrom = new WeakMap<readonly BulkLine[], readonly BulkLine[]>();
const keptFrom = (planned: readonly BulkLine[], from: readonly BulkLine[]) => {
  plainFrom.set(planned, from);
  return planned;
};
/** The lines `lines` were planned from (themselves when they were not planned): a new plan starts there. */
const plannedFrom = (lines: readonly BulkLine[]): readonly BulkLine[] =>
  lazySources.get(lines)?.from ?? plainFrom.get(lines) ?? lines;

/**
 * Each of `lines` through `plan`; made when read if `lines` are, and then counted without making
 * them: `plan` gives every line of one `kind` the same state and cost, so the planned lines' tally
 * (what `pendingCounts`, `progressOf` and `affordability` read) is worked out from one planned line
 * of each kind and each line's kind, read once per lines and `kind` (the same function for as long
 * as what it reads besides the line stays the same: the lines with an open change). A bulk preview's
 * months or connections changed on 100,000 lines is then a pass over their kinds, not 100,000 lines
 * made and planned again (issue #27). Lines planned before (or quoted) are planned again from the
 * lines they were planned from, made when read or not: nothing a plan set (a line held back) outlives it.
 */
export function planLines(
  lines: readonly BulkLine[],
  kind: (l: BulkLine) => string,
  plan: (l: BulkLine) => BulkLine,
): readonly BulkLine[] {
  const source = plannedFrom(lines);
  const from = lazySources.get(source);
  if (!from) return keptFrom(source.map(plan), source);
  const kinds = kindsOf(source, kind);
  const byKind = kinds.samples.map(plan);
  const n = source.length;
  const costs = new Float64Array(n);
  const skipped = new Uint8Array(n);
  const pending = new Uint8Array(n);
  const uncosted = new Uint8Array(n);
  const perKind = new Float64Array(byKind.length);
  // Costs added in place order, as a count of the lines made adds them: a price times a count is not
  // always that sum (0.1 × 10 is 1; 0.1 added ten times is 0.9999999999999999).
  let costSum = 0;
  for (let i = 0; i < n; i++) {
    const k = kinds.of[i]!;
    const p = byKind[k]!;
    perKind[k]!++;
    costs[i] = p.cost ?? 0;
    costSum += costs[i]!;
    if (p.state === 'skipped') skipped[i] = 1;
    else if (p.state === 'pending') {
      pending[i] = 1;
      if (p.cost === null) uncosted[i] = 1;
    }
  }
  const states = noStates();
  let costUnknown = 0;
  let chargeUnknown = 0;
  byKind.forEach((p, k) => {
    const count = perKind[k]!;
    states[p.state] += count;
    if (p.state === 'pending' && p.cost === null) costUnknown += count;
    if (p.state === 'done' && p.charge === 'unknown') chargeUnknown += count;
  });
  const { at, indexOf } = from;
  const planned = lazyOf(n, { at: (i) => plan(at(i)), indexOf, from: source });
  tallies.set(planned, {
    counts: { pending: states.pending, costUnknown, costSum },
    states,
    credits: kinds.credits,
    chargeUnknown,
    costs,
    skipped,
    pending,
    uncosted,
  });
  return planned;
}

/**
 * `lines` with the server's quotes of some of them, by place (`null`: it gave none, said so): made
 * when read if `lines` are, the others the lines as they were. A quote is the server's, per line (an
 * upgrade is priced by the days the line has left), so it is not counted by kind; the count is the
 * lines' own with those places changed, and no line is made for it. Planned again (a key in the
 * preview), they are planned from the lines `lines` were planned from: by kind again.
 */
export function quotedLines(
  lines: readonly BulkLine[],
  quotes: ReadonlyMap<number, number | null>,
): readonly BulkLine[] {
  const quoted = (l: BulkLine, cost: number | null): BulkLine => ({
    ...l,
    cost,
    ...(cost === null ? { detail: 'no quote' } : {}),
  });
  const source = lazySources.get(lines);
  if (!source)
    return keptFrom(
      lines.map((l, i) => (quotes.has(i) ? quoted(l, quotes.get(i)!) : l)),
      plannedFrom(lines),
    );
  const t = tally(lines);
  const costs = t.costs.slice();
  const uncosted = t.uncosted.slice();
  for (const [i, cost] of quotes) {
    costs[i] = cost ?? 0;
    if (t.pending[i]) uncosted[i] = cost === null ? 1 : 0;
  }
  // Summed in place order, as a count of the lines made would.
  let costSum = 0;
  let costUnknown = 0;
  for (let i = 0; i < costs.length; i++) {
    costSum += costs[i]!;
    costUnknown += uncosted[i]!;
  }
  const { at, indexOf } = source;
  const result = lazyOf(lines.length, {
    at: (i) => (quotes.has(i) ? quoted(at(i), quotes.get(i)!) : at(i)),
    indexOf,
    from: plannedFrom(lines),
  });
  tallies.set(result, { ...t, counts: { ...t.counts, costSum, costUnknown }, costs, uncosted });
  return result;
}

/**
 * What changed in a line since it was marked that changes its plan (its cost, or whether it is
 * sent at all), in words; null when the plan stands (`was`: the marks', `now`: read again just
 * before sending). A moved expiry changes every plan but an unsuspend's: an extend's (someone may
 * have extended it already: sent too, the line would be paid for twice, ending later than shown), an
 * upgrade's (priced by the days left), a delete's (the paid time it loses).
 */
export function planChanged(op: ChangeOp, was: BulkLine['before'], now: BulkLine['before']): string | null {
  if (op === 'create' || op === 'trial') return null;
  if ((op === 'extend' || op === 'upgrade') && was.isTrial !== now.isTrial)
    return now.isTrial ? 'it is a trial now' : 'it is no longer a trial';
  if ((op === 'extend' || op === 'upgrade') && was.connections !== now.connections)
    return `its connections went from ${was.connections} to ${now.connections}`;
  if (op === 'unsuspend' && was.enabled !== now.enabled)
    return now.enabled ? 'it is not suspended any more' : 'it was suspended meanwhile';
  const expiryMoved = was.expMs !== now.expMs || (was.expRaw ?? null) !== (now.expRaw ?? null);
  // From when to when: a reseller decides by it whether to run it again (extended already, or not).
  const moved = expiryMoved ? expiryMove(was, now) : '';
  if (op === 'extend' && expiryMoved)
    return `its expiry moved ${moved}: someone may have extended it already`;
  if (op === 'upgrade' && expiryMoved)
    return `its expiry changed ${moved}: the upgrade’s price, by the days left, differs`;
  if (op === 'delete' && expiryMoved) return `its expiry changed ${moved}: the paid time it loses differs`;
  return null;
}

/**
 * "from 2026-12-18 to 2027-03-18": days; the times when both fall on one day; the server's own text
 * when only that moved.
 */
function expiryMove(was: BulkLine['before'], now: BulkLine['before']): string {
  const at = (b: BulkLine['before']) =>
    b.expMs !== null ? absoluteText({ raw: '', ms: b.expMs }) : b.expRaw ? `"${b.expRaw}"` : 'no expiry';
  const [a, b] = [at(was), at(now)];
  if (a === b) return `from "${was.expRaw ?? ''}" to "${now.expRaw ?? ''}"`;
  const day = (t: string) => t.replace(/ \d\d:\d\d UTC$/, '');
  return day(a) === day(b) ? `from ${a} to ${b}` : `from ${day(a)} to ${day(b)}`;
}

/**
 * The paid time a line still has, as deleting it would lose it: days by the one day rule (0: some
 * of today), 'never' for a line without expiry, null when none is left (or its expiry is unreadable).
 */
function paidTimeLost(before: BulkLine['before'], nowMs: number): number | 'never' | null {
  if (before.expMs === null) return before.expRaw ? null : 'never';
  return before.expMs > nowMs ? daysUntil(before.expMs, nowMs) : null;
}

const lostText = (lost: number | 'never') =>
  lost === 'never'
    ? 'loses its paid time (never expires)'
    : lost === 0
      ? 'loses the paid time left today'
      : `loses ${counted(lost, 'paid day')}`;

const deletedTexts = new WeakMap<readonly BulkLine[], { nowMs: number; text: string | null }>();

/**
 * A delete's summary: nothing is refunded, and how much paid time the lines lose; null when none.
 * Asked on every frame of the preview: kept per lines array and time.
 */
export function deletedPaidTimeText(lines: readonly BulkLine[], nowMs: number): string | null {
  const kept = deletedTexts.get(lines);
  if (kept?.nowMs === nowMs) return kept.text;
  const text = deletedPaidTime(lines, nowMs);
  deletedTexts.set(lines, { nowMs, text });
  return text;
}

function deletedPaidTime(lines: readonly BulkLine[], nowMs: number): string | null {
  const sent = lines.filter((l) => l.state !== 'skipped');
  const lost = sent.map((l) => paidTimeLost(l.before, nowMs)).filter((d) => d !== null);
  if (!lost.length) return null;
  const days = lost.reduce<number>((n, d) => n + (d === 'never' ? 0 : d), 0);
  const never = lost.filter((d) => d === 'never').length;
  const parts = [
    days ? `${countText(days)} paid days in all` : '',
    never ? `${countText(never)} never expiring` : '',
  ]
    .filter(Boolean)
    .join(', ');
  // Short enough for the bulk dialog's must-show lines at 80 columns.
  return `No refund: ${countText(lost.length)} of ${counted(sent.length, 'line')} still ${lost.length === 1 ? 'has' : 'have'} paid time${parts ? `, ${parts}` : ''}`;
}

interface Affordability {
  readonly total: number;
  /** The total of the affordable ones, what "only the affordable ones" will cost. */
  readonly spent: number;
  /** Of the job's lines, those taken (`size`: how many; `has`: asked of the job's lines only). */
  readonly affordable: { readonly size: number; has(id: string): boolean };
  readonly considered: number;
  readonly fitsAll: boolean;
}

/**
 * Asked on every frame of the bulk preview, for 100,000 lines: kept per lines array (a job's lines
 * are never changed in place: a change is a new array) and balance.
 */
const affordable = new WeakMap<readonly BulkLine[], { balance: number; result: Affordability }>();

/** Lines the balance covers, taken in order; the rest are not affordable. */
export function affordability(lines: readonly BulkLine[], balance: number): Affordability {
  const kept = affordable.get(lines);
  if (kept && kept.balance === balance) return kept.result;
  const result = affordabilityOf(lines, balance);
  affordable.set(lines, { balance, result });
  return result;
}

/** Taken in order over the costs a tally keeps (lines made when read are not made again). */
function affordabilityOf(lines: readonly BulkLine[], balance: number): Affordability {
  const { costs, skipped } = tally(lines);
  const indexOf = lazySources.get(lines)?.indexOf;
  const byPlace = new Uint8Array(lines.length);
  let total = 0;
  let spent = 0;
  let considered = 0;
  let size = 0;
  for (let i = 0; i < costs.length; i++) {
    if (skipped[i]) continue;
    considered++;
    const c = costs[i]!;
    total += c;
    if (spent + c <= balance) {
      spent += c;
      size++;
      byPlace[i] = 1;
    }
  }
  // Without places to ask by, the ids taken (lines made when read are made once more).
  const ids = indexOf ? null : new Set(lines.filter((_, i) => byPlace[i]).map((l) => l.id));
  const taken = {
    size,
    has: (id: string) => (indexOf ? byPlace[indexOf(id)] === 1 : ids!.has(id)),
  };
  return { total, spent, affordable: taken, considered, fitsAll: total <= balance };
}

const noStates = (): Record<BulkLineState, number> => ({
  pending: 0,
  sending: 0,
  done: 0,
  failed: 0,
  unknown: 0,
  skipped: 0,
  cancelled: 0,
});

/** What every count of a job's lines reads (one rule: `countLines`). */
interface LineCounts {
  readonly counts: Counts;
  readonly states: Readonly<Record<BulkLineState, number>>;
  readonly credits: number;
  readonly chargeUnknown: number;
}

/**
 * The one counting rule over a job's lines, in one pass (lines made when read are made once): the
 * lines per state, the known costs' sum (skipped ones included), the pending lines with no cost yet,
 * the credits deduced, the applied lines whose charge is unknown. With `costs` and `skipped`, each
 * line's cost (0 when unknown) and whether it is skipped are kept by place too (a tally's).
 */
function countLines(
  lines: readonly BulkLine[],
  costs?: Float64Array,
  skipped?: Uint8Array,
  pending?: Uint8Array,
  uncosted?: Uint8Array,
): LineCounts {
  const states = noStates();
  let costUnknown = 0;
  let costSum = 0;
  let credits = 0;
  let chargeUnknown = 0;
  let i = 0;
  for (const l of lines) {
    states[l.state]++;
    if (costs) costs[i] = l.cost ?? 0;
    if (skipped) skipped[i] = l.state === 'skipped' ? 1 : 0;
    if (pending) pending[i] = l.state === 'pending' ? 1 : 0;
    if (uncosted) uncosted[i] = l.state === 'pending' && l.cost === null ? 1 : 0;
    i++;
    costSum += l.cost ?? 0;
    if (l.state === 'pending' && l.cost === null) costUnknown++;
    credits += l.deducedCredits ?? 0;
    if (l.state === 'done' && l.charge === 'unknown') chargeUnknown++;
  }
  return { counts: { pending: states.pending, costUnknown, costSum }, states, credits, chargeUnknown };
}

/**
 * Lines made when read, counted once: what `pendingCounts`, `progressOf` and `affordability` read of
 * them (`countLines`, with each line's cost and whether it is skipped), so none of them makes the
 * 100,000 lines again. Never changed: such lines are never written.
 */
interface Tally extends LineCounts {
  readonly costs: Float64Array;
  readonly skipped: Uint8Array;
  readonly pending: Uint8Array;
  /** Pending with no cost yet (what `counts.costUnknown` counts), by place. */
  readonly uncosted: Uint8Array;
}
const tallies = new WeakMap<readonly BulkLine[], Tally>();

function tally(lines: readonly BulkLine[]): Tally {
  const kept = tallies.get(lines);
  if (kept) return kept;
  const costs = new Float64Array(lines.length);
  const skipped = new Uint8Array(lines.length);
  const pending = new Uint8Array(lines.length);
  const uncosted = new Uint8Array(lines.length);
  const t = { ...countLines(lines, costs, skipped, pending, uncosted), costs, skipped, pending, uncosted };
  tallies.set(lines, t);
  return t;
}

/** Lines made when read are counted once and kept; others are counted afresh (a new array each change). */
const countsOf = (lines: readonly BulkLine[]): LineCounts =>
  lazySources.has(lines) ? tally(lines) : countLines(lines);

/** Where the lines still to send are (their places), read from a tally if `lines` are made when read. */
export function pendingPlaces(lines: readonly BulkLine[]): number[] {
  const places: number[] = [];
  if (lazySources.has(lines)) {
    const { pending } = tally(lines);
    for (let i = 0; i < pending.length; i++) if (pending[i]) places.push(i);
  } else
    lines.forEach((l, i) => {
      if (l.state === 'pending') places.push(i);
    });
  return places;
}

interface Counts {
  readonly pending: number;
  readonly costUnknown: number;
  /** Every line's known cost, skipped ones included. */
  readonly costSum: number;
}
const counts = new WeakMap<readonly BulkLine[], Counts>();

/** How many lines are still to send, how many of those have no cost yet, the costs' sum (kept per array). */
export function pendingCounts(lines: readonly BulkLine[]): Counts {
  let c = counts.get(lines);
  if (!c) {
    c = countsOf(lines).counts;
    counts.set(lines, c);
  }
  return c;
}

export interface BulkProgress {
  readonly done: number;
  readonly failed: number;
  readonly unknown: number;
  readonly remaining: number;
  readonly skipped: number;
  readonly cancelled: number;
  readonly credits: number;
  /** Lines confirmed applied whose charge is not known yet (shown as such, never as 0). */
  readonly chargeUnknown: number;
  readonly ratePerSec: number;
  readonly etaSec: number | null;
}

/**
 * Where a job stands. `finishedBefore`: lines it had finished before this run began (a resumed job):
 * the rate, and so the ETA, count only what this run did in `elapsedMs`.
 */
export function progressOf(job: BulkJob, elapsedMs: number, finishedBefore = 0): BulkProgress {
  const { states: s, credits, chargeUnknown } = countsOf(job.lines);
  return rated(
    {
      done: s.done,
      failed: s.failed,
      unknown: s.unknown,
      remaining: s.pending + s.sending,
      skipped: s.skipped,
      cancelled: s.cancelled,
      credits,
      chargeUnknown,
    },
    elapsedMs,
    finishedBefore,
  );
}

function rated(
  c: Omit<BulkProgress, 'ratePerSec' | 'etaSec'>,
  elapsedMs: number,
  finishedBefore: number,
): BulkProgress {
  const finished = Math.max(0, c.done + c.failed - finishedBefore);
  const ratePerSec = elapsedMs > 0 ? (finished * 1000) / elapsedMs : 0;
  return { ...c, ratePerSec, etaSec: ratePerSec > 0 ? (c.remaining + c.unknown) / ratePerSec : null };
}

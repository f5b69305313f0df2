/**
 * The verdict function, as a table (issue 23, item 8): every evidence kind × balance situation × hold
 * window × spending or free operation, plus the server dialects, which reach `judge` only through the
 * evidence they let `gatherEvidence` see. Asserted: the verdict's state (and charge), and the promise
 * that "not applied" never appears without evidence for the line and the hold window passed — nor,
 * for a spending operation, without a balance that could be compared (item 8b: an unreadable balance
 * was called "not applied", caught only by the long soak).
 */
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import type { BulkJob, BulkLine, ChangeOp } from '../../src/domain/bulk';
import { type Evidence, judge, type Verdict } from '../../src/domain/proof';
import { gatherEvidence } from '../../src/services/changes/evidence';
import type { StoreClient } from '../../src/store/deps';

const SENT = Date.parse('2026-11-20T10:00:00Z');
const HOLD_MS = 10 * 60_000;
const COST = 3;

type Kind = Evidence['kind'] | 'none';
type Balance =
  | 'unreadable now'
  | 'unreadable before'
  | 'no fall'
  | 'fell by the cost'
  | 'fell by more'
  | 'rose';
type Window = 'just sent' | 'a moment before the end' | 'exactly at the end' | 'after' | 'no hold given';

const KINDS: readonly Kind[] = ['none', 'changed', 'unchanged', 'missing'];
const BALANCES: readonly Balance[] = [
  'unreadable now',
  'unreadable before',
  'no fall',
  'fell by the cost',
  'fell by more',
  'rose',
];
const WINDOWS: Readonly<Record<Window, number | null>> = {
  'just sent': 1_000,
  'a moment before the end': HOLD_MS - 1,
  'exactly at the end': HOLD_MS,
  after: HOLD_MS + 60_000,
  // A caller that passes no window asks for the verdict at once (every caller in src passes one).
  'no hold given': null,
};
const OPS: readonly ChangeOp[] = ['extend', 'upgrade', 'create', 'unsuspend', 'delete'];
const SPENDING = new Set<ChangeOp>(['extend', 'upgrade', 'create', 'trial']);

const line = (id: string, cost = COST): BulkLine => ({
  id,
  username: `user-${id}`,
  before: { expMs: SENT, connections: 1, enabled: false, isTrial: false },
  cost,
  after: {},
  state: 'unknown',
  sentAt: SENT,
});

const balances = (b: Balance): { before: number | null; now: number | null } => {
  switch (b) {
    case 'unreadable now':
      return { before: 100, now: null };
    case 'unreadable before':
      return { before: null, now: 100 - COST };
    case 'no fall':
      return { before: 100, now: 100 };
    case 'fell by the cost':
      return { before: 100, now: 100 - COST };
    case 'fell by more':
      return { before: 100, now: 100 - COST - 7 };
    case 'rose':
      return { before: 100, now: 150 };
  }
};

const jobOf = (op: ChangeOp, lines: BulkLine[], before: number | null): BulkJob => ({
  id: 'job',
  op,
  months: 1,
  connections: 2,
  target: 't',
  createdAt: new Date(SENT - 5_000).toISOString(),
  balanceBefore: before,
  lines,
});

const holdOf = (w: Window) =>
  WINDOWS[w] === null ? undefined : { now: SENT + WINDOWS[w]!, holdMs: HOLD_MS };
const passed = (w: Window) => WINDOWS[w] === null || WINDOWS[w]! >= HOLD_MS;

type Expect = {
  state: Verdict['state'];
  charge?: Verdict['charge'];
  deducedCredits?: number;
  notYet?: boolean;
} | null;

/** The expected verdict of a one-line job, written out rule by rule (not computed like `judge`). */
function expected(op: ChangeOp, kind: Kind, bal: Balance, w: Window): Expect {
  if (kind === 'none') return null; // no evidence: no verdict, the line stays as it is
  const notApplied: Expect = passed(w) ? { state: 'failed' } : { state: 'unknown', notYet: true };
  if (!SPENDING.has(op)) {
    if (kind === 'changed') return { state: 'done' };
    if (kind === 'unchanged') return notApplied;
    return { state: 'unknown' }; // missing proves nothing
  }
  switch (bal) {
    case 'unreadable now':
    case 'unreadable before':
    case 'rose':
      // The balance cannot judge: a change on the line is applied (amount unknown); no change proves nothing.
      return kind === 'changed' ? { state: 'done', charge: 'unknown' } : { state: 'unknown' };
    case 'no fall':
      // Nothing charged: a changed line contradicts it (unknown); no change, and no charge, is not applied.
      return kind === 'changed' ? { state: 'unknown' } : notApplied;
    case 'fell by the cost':
      return kind === 'changed'
        ? { state: 'done', charge: 'balance', deducedCredits: COST }
        : { state: 'unknown' }; // a fall that the lines shown do not explain
    case 'fell by more':
      // More than this job could cost: another client spent too; never counted as this line's charge.
      return kind === 'changed' ? { state: 'done', charge: 'unknown' } : { state: 'unknown' };
  }
}

const cases = OPS.flatMap((op) =>
  KINDS.flatMap((kind) =>
    BALANCES.flatMap((bal) => (Object.keys(WINDOWS) as Window[]).map((w) => [op, kind, bal, w] as const)),
  ),
);

describe('judge: every evidence × balance × hold window × operation', () => {
  it.each(cases)('%s, evidence %s, balance %s, %s', (op, kind, bal, w) => {
    const { before, now } = balances(bal);
    const job = jobOf(op, [line('a')], before);
    const evidence = new Map<string, Evidence>(kind === 'none' ? [] : [['a', { kind }]]);
    const verdicts = judge(job, evidence, now, holdOf(w));
    const want = expected(op, kind, bal, w);
    if (!want) return expect(verdicts).toEqual([]);
    expect(verdicts).toHaveLength(1);
    const v = verdicts[0]!;
    expect(v.state).toBe(want.state);
    if (want.charge !== undefined) expect(v.charge).toBe(want.charge);
    expect(v.deducedCredits).toBe(want.deducedCredits);
    if (want.notYet) expect(v.detail).toMatch(/^no change seen yet/);
    if (v.state === 'failed') {
      expect(v.provenNotApplied).toBe(true);
      expect(v.detail).toMatch(/^not applied/);
    }
    // The promise, whatever the table says.
    if (v.state === 'failed') {
      expect(kind).not.toBe('changed');
      expect(passed(w)).toBe(true);
      if (SPENDING.has(op)) expect(before !== null && now !== null && now <= before).toBe(true);
      else expect(kind).toBe('unchanged');
    }
  });
});

describe('judge: several lines share the balance', () => {
  const two = (bKind: Kind, nowBalance: number, w: Window, third?: BulkLine) => {
    const lines = [line('a'), line('b'), ...(third ? [third] : [])];
    const evidence = new Map<string, Evidence>([['a', { kind: 'changed' }]]);
    if (bKind !== 'none') evidence.set('b', { kind: bKind });
    return new Map(judge(jobOf('extend', lines, 100), evidence, nowBalance, holdOf(w)).map((v) => [v.id, v]));
  };

  it.each(['unchanged', 'missing'] as const)(
    'the fall is what the changed line costs: the other (%s) is not applied, only after the window',
    (kind) => {
      const within = two(kind, 100 - COST, 'a moment before the end');
      // While the other line may still be applied, the fall is not all the changed line's.
      expect(within.get('a')).toMatchObject({ state: 'done', charge: 'unknown' });
      expect(within.get('b')).toMatchObject({ state: 'unknown' });
      expect(within.get('b')!.detail).toMatch(/^no change seen yet/);
      const after = two(kind, 100 - COST, 'exactly at the end');
      expect(after.get('b')).toMatchObject({ state: 'failed', provenNotApplied: true });
      expect(after.get('a')).toMatchObject({ state: 'done', charge: 'balance', deducedCredits: COST });
    },
  );

  it('a line not yet checked could explain the fall: no "not applied" for the other, no charge shared', () => {
    const v = two('unchanged', 100 - COST, 'after', line('c'));
    expect(v.get('b')).toMatchObject({ state: 'unknown' });
    expect(v.get('a')).toMatchObject({ state: 'done', charge: 'unknown' });
    expect(v.has('c')).toBe(false);
  });

  it('a line that costs nothing and is not found, the balance unchanged: unknown, never "not applied"', () => {
    for (const op of ['upgrade', 'extend'] as const) {
      const job = jobOf(op, [line('a', 0)], 100);
      const [v] = judge(job, new Map([['a', { kind: 'missing' }]]), 100, holdOf('after'));
      expect(v).toMatchObject({ state: 'unknown' });
    }
  });

  it('a fall of both lines while one shows no change: unknown, not applied never', () => {
    const v = two('unchanged', 100 - 2 * COST, 'after');
    expect(v.get('b')).toMatchObject({ state: 'unknown' });
  });

  it('an unreadable balance after the window: the changed line is applied, amount unknown; the other unknown', () => {
    const lines = [line('a'), line('b')];
    const evidence = new Map<string, Evidence>([
      ['a', { kind: 'changed' }],
      ['b', { kind: 'unchanged' }],
    ]);
    const v = new Map(
      judge(jobOf('extend', lines, 100), evidence, null, holdOf('after')).map((x) => [x.id, x]),
    );
    expect(v.get('a')).toMatchObject({ state: 'done', charge: 'unknown' });
    expect(v.get('b')).toMatchObject({ state: 'unknown' });
    expect(v.get('b')!.detail).toMatch(/balance could not be compared/);
  });
});

/**
 * Server dialects reach the verdict only through the evidence (here for a line that costs nothing, so
 * the line alone decides): a search that ignores ids (the line is
 * found by its username), a lagging search (not found), an expiry the app cannot parse (compared as
 * the text the server sent). Each dialect × what the server shows, through `gatherEvidence`, then
 * `judge` after the window with the balance unchanged: "not applied" only where the line was seen
 * unchanged.
 */
describe('judge after gatherEvidence, per server dialect', () => {
  const ID = '7f6c1b7e-1111-4222-8333-944445555666';
  const BEFORE_MS = SENT + 86_400_000;
  const listed = (exp: { ms: number | null; raw: string | null }): LineListItem =>
    ({ id: ID, username: 'alice01', exp_date: exp, connections: 1, enabled: true, is_trial: false }) as never;
  type Dialect = 'ids searched' | 'ids ignored' | 'search lags' | 'expiry unparsable';
  const clientFor = (d: Dialect, applied: boolean): StoreClient => {
    const exp =
      d === 'expiry unparsable'
        ? { ms: null, raw: applied ? '20/01/2027 (Wed)' : '20/12/2026 (Sun)' }
        : { ms: applied ? BEFORE_MS + 30 * 86_400_000 : BEFORE_MS, raw: 'x' };
    return {
      listLines: async ({ search }: { search?: string }) => {
        if (d === 'search lags') return { lines: [], total: 0 };
        if (d === 'ids ignored' && search === ID) return { lines: [], total: 0 };
        return { lines: [listed(exp)], total: 1 };
      },
    } as unknown as StoreClient;
  };
  const item: BulkLine = {
    ...line(ID, 0),
    username: 'alice01',
    before: { expMs: BEFORE_MS, expRaw: 'x', connections: 1, enabled: true, isTrial: false },
  };
  const unparsable: BulkLine = {
    ...item,
    before: { ...item.before, expMs: null, expRaw: '20/12/2026 (Sun)' },
  };

  it.each([
    ['ids searched', true, 'changed', 'done'],
    ['ids searched', false, 'unchanged', 'failed'],
    ['ids ignored', true, 'changed', 'done'],
    ['ids ignored', false, 'unchanged', 'failed'],
    ['search lags', true, 'missing', 'unknown'],
    ['search lags', false, 'missing', 'unknown'],
    ['expiry unparsable', true, 'changed', 'done'],
    ['expiry unparsable', false, 'unchanged', 'failed'],
  ] as const)('%s, applied %s: evidence %s, verdict %s', async (d, applied, kind, state) => {
    const l = d === 'expiry unparsable' ? unparsable : item;
    const job = jobOf('extend', [l], 100);
    const { evidence } = await gatherEvidence(clientFor(d, applied), job, l);
    expect(evidence.kind).toBe(kind);
    // Cost 0 lines and an unchanged balance: the line alone decides, as a free change's would.
    const [v] = judge(job, new Map([[ID, evidence]]), 100, holdOf('after'));
    expect(v!.state).toBe(state);
    const [early] = judge(job, new Map([[ID, evidence]]), 100, holdOf('just sent'));
    expect(early!.state).not.toBe('failed');
  });
});

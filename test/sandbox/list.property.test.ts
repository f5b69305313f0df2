import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { ListLinesParams } from '../../src/api/contract';
import { EXPIRING_WITHIN_DAYS } from '../../src/domain/line-status';
import { DAY_MS } from '../../src/domain/pricing';
import type { Sandbox } from '../../src/sandbox/index';
import { sandbox } from '../helpers/sandbox';

// The list's caches and fast paths (cached ordered lists, trigram lookups, rank sorts) against the
// plainest SQL over the same database: same lines, same order, same totals, before and after writes.

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
type View = Required<
  Pick<ListLinesParams, 'status' | 'type' | 'orderBy' | 'orderType' | 'offset' | 'limit'>
> & {
  search?: string;
};

/** What the list must answer, straight from the table: a filter, a LIKE, an ORDER BY, LIMIT/OFFSET. */
function plain(sb: Sandbox, accountId: number, v: View): { total: number; ids: string[] } {
  const where = ['account_id = @account'];
  const params: Record<string, unknown> = {
    account: accountId,
    now: NOW,
    soon: NOW + EXPIRING_WITHIN_DAYS * DAY_MS,
  };
  if (v.status === 'suspended') where.push('enabled = 0');
  if (v.status === 'active') where.push('enabled = 1 AND (exp_date IS NULL OR exp_date > @now)');
  if (v.status === 'expiring') where.push('enabled = 1 AND exp_date > @now AND exp_date <= @soon');
  if (v.type !== 'all') where.push(`is_trial = ${v.type === 'trial' ? 1 : 0}`);
  if (v.search) {
    where.push("(username LIKE @like ESCAPE '\\' OR id = @exact)");
    params.like = `%${v.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.exact = v.search.toLowerCase();
  }
  const dir = v.orderType === 'desc' ? 'DESC' : 'ASC';
  const order = v.orderBy === 'id' ? `id ${dir}` : `${v.orderBy} ${dir}, id ${dir}`;
  const sql = `FROM lines WHERE ${where.join(' AND ')}`;
  const db = sb.repo.db;
  const total = (db.prepare(`SELECT count(*) AS n ${sql}`).get(params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT id ${sql} ORDER BY ${order} LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: v.limit, offset: v.offset }) as Array<{ id: string }>;
  return { total, ids: rows.map((r) => r.id) };
}

const term = fc.oneof(
  fc.constantFrom(
    'a',
    'ar',
    'ann',
    'son',
    'SMI',
    'er',
    '00',
    '01',
    '12',
    '123',
    '9',
    'x_',
    '%',
    '"',
    'nice-',
    'O.k',
  ),
  fc.stringMatching(/^[a-zA-Z0-9._~-]{1,4}$/),
);
type Op =
  | { kind: 'list'; who: 0 | 1; view: View; deep: boolean }
  | { kind: 'create'; who: 0 | 1; username: string; trial: boolean }
  | { kind: 'extend' | 'delete'; pick: number };
const viewArb = fc.record({
  status: fc.constantFrom('all', 'all', 'active', 'suspended', 'expiring' as const),
  type: fc.constantFrom('all', 'all', 'premium', 'trial' as const),
  orderBy: fc.constantFrom('id', 'username', 'enabled', 'exp_date' as const),
  orderType: fc.constantFrom('asc', 'desc' as const),
  offset: fc.nat({ max: 400 }),
  limit: fc.constantFrom(1, 7, 20, 100),
  search: fc.option(term, { nil: undefined }),
}) as fc.Arbitrary<View>;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      who: fc.constantFrom(0, 1 as const),
      view: viewArb,
      deep: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      who: fc.constantFrom(0, 1 as const),
      username: fc.stringMatching(/^[a-zA-Z0-9._~-]{12,20}$/),
      trial: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('extend', 'delete' as const), pick: fc.nat() }) },
);

describe('line lists equal a plain query', () => {
  it('over random views, searches, pages and writes between them', async () => {
    // Small thresholds: deep pages slice a cached list past offset 30, and a search of more than
    // 15 trigram matches is ranked by the view's list (fewer are looked up row by row).
    const { sb, client, second } = await sandbox({
      lines: 500,
      now: () => NOW,
      listTuning: { deepOffset: 30, lookupMax: 15 },
    });
    const accounts = sb.repo.accounts();
    const clients: ApiClient[] = [client, second];
    const ids = (await client.listLines({ limit: 100 })).lines.map((l) => l.id);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const op of ops) {
          if (op.kind === 'list') {
            const acct = accounts[op.who]!.id;
            const want0 = plain(sb, acct, { ...op.view, offset: 0, limit: 1 });
            // "deep": the last pages of the view, where OFFSET would walk the most.
            const offset = op.deep ? Math.max(0, want0.total - (op.view.offset % 60)) : op.view.offset;
            const view = { ...op.view, offset };
            const got = await clients[op.who]!.listLines(view);
            const want = plain(sb, acct, view);
            expect({ total: got.totalHits, ids: got.lines.map((l) => l.id) }, JSON.stringify(view)).toEqual(
              want,
            );
          } else if (op.kind === 'create') {
            const body = { duration: op.trial ? 24 : 1, username: op.username };
            const c = clients[op.who]!;
            const r = await (op.trial ? c.createTrial(body) : c.createLine(body)).catch(() => undefined);
            if (r?.line && op.who === 0) ids.push(r.line.id);
          } else if (ids.length) {
            const id = ids[op.pick % ids.length]!;
            if (op.kind === 'delete') {
              await client.deleteLine({ id });
              ids.splice(ids.indexOf(id), 1);
            } else await client.extendLine({ id, duration: 1 }).catch(() => undefined);
          }
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

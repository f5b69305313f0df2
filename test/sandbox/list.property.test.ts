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
    // Across two usernames if the newline that joins them in memory counted:
    '\na',
    '2\n',
    '\n',
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
      // Usernames the searches find: a term, then random characters.
      username: fc
        .tuple(
          fc.constantFrom('ann', 'son', 'SMI', '123', 'x_', 'nice-', 'O.k', 'Zz'),
          fc.stringMatching(/^[a-zA-Z0-9._~-]{12,18}$/),
        )
        .map(([a, b]) => a + b),
      trial: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('extend', 'delete' as const), pick: fc.nat() }) },
);

const LATEST_ACTIVE: View = {
  status: 'active',
  type: 'all',
  orderBy: 'exp_date',
  orderType: 'desc',
  offset: 0,
  limit: 20,
};

describe('line lists equal a plain query', () => {
  // Small thresholds: deep pages slice a cached list past offset 30, and a search of more than 15
  // trigram matches is ranked by the view's list. Huge ones: searches of an unfiltered view are
  // always looked up row by row, pages always follow OFFSET.
  it.each([
    { deepOffset: 30, lookupMax: 15 },
    { deepOffset: 1e9, lookupMax: 1e9 },
  ])(
    'over random views, searches, pages and writes between them (%o)',
    async (listTuning) => {
      const { sb, client, second } = await sandbox({ lines: 500, credits: 1e6, now: () => NOW, listTuning });
      const accounts = sb.repo.accounts();
      const clients: ApiClient[] = [client, second];
      const ids = (await client.listLines({ limit: 100 })).lines.map((l) => l.id);
      const check = async (who: 0 | 1, v: View, deep: boolean) => {
        const acct = accounts[who]!.id;
        // "deep": the last pages of the view, where OFFSET would walk the most.
        const offset = deep
          ? Math.max(0, plain(sb, acct, { ...v, limit: 1 }).total - (v.offset % 60))
          : v.offset;
        const view = { ...v, offset };
        const got = await clients[who]!.listLines(view);
        expect({ total: got.totalHits, ids: got.lines.map((l) => l.id) }, JSON.stringify(view)).toEqual(
          plain(sb, acct, view),
        );
      };
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
          let last: Extract<Op, { kind: 'list' }> | undefined;
          for (const op of ops) {
            if (op.kind === 'list') {
              await check(op.who, op.view, op.deep);
              last = op;
              continue;
            }
            await check(0, LATEST_ACTIVE, false); // cached before the write…
            if (op.kind === 'create') {
              const body = { duration: op.trial ? 24 : 1, username: op.username };
              const c = clients[op.who]!;
              const r = await (op.trial ? c.createTrial(body) : c.createLine(body)).catch(() => undefined);
              if (r?.line && op.who === 0) ids.push(r.line.id);
            } else if (ids.length) {
              const id = ids[op.pick % ids.length]!;
              if (op.kind === 'delete') {
                await client.deleteLine({ id });
                ids.splice(ids.indexOf(id), 1);
              } else await client.extendLine({ id, duration: 12 }).catch(() => undefined);
            }
            await check(0, LATEST_ACTIVE, false); // …and shows it after (an extended line rises to the top)
            // The view seen before the write, again: its next page shows the write as a plain query does.
            if (last)
              await check(last.who, { ...last.view, offset: last.view.offset + last.view.limit }, last.deep);
          }
        }),
        { numRuns: 50 },
      );
    },
    120_000,
  );
});

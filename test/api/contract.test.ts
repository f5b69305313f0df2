import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  Account,
  BouquetsResponse,
  CreateLineBody,
  CreateTrialBody,
  DeleteBody,
  ErrorBody,
  ExtendBody,
  Line,
  LineIdentification,
  LineListItem,
  LinesPage,
  ListLinesQuery,
  MessageOnlyBody,
  Package,
  PackagesQuery,
  UpgradeBody,
} from '../../src/api/contract';

const ok = (schema: z.ZodType, v: unknown) =>
  expect(schema.safeParse(v).success, JSON.stringify(v)).toBe(true);
const bad = (schema: z.ZodType, v: unknown, field?: string) => {
  const r = schema.safeParse(v);
  expect(r.success, JSON.stringify(v)).toBe(false);
  if (field && !r.success) {
    const paths = r.error.issues.map((i) => i.path.join('.'));
    expect(
      paths.some((p) => p === field || p.startsWith(`${field}.`)),
      paths.join(),
    ).toBe(true);
  }
};

const UUID = '3f2b8c1e-9a4d-4f7e-8b21-5c6d7e8f9a01';

describe('creation body rules (Common creation body table)', () => {
  const base = { duration: 1 };
  const cases: Array<[string, string, unknown, unknown]> = [
    ['username', 'length 12 to 30', 'a'.repeat(12), 'a'.repeat(11)],
    ['username', 'length at most 30', 'a'.repeat(30), 'a'.repeat(31)],
    ['username', 'RFC 3986 unreserved only', 'user.name-_~12', 'user name 1234'],
    ['username', 'no reserved characters', 'abcdefghijkl', 'abcdef/ghijkl'],
    ['password', 'length 14 to 30', 'p'.repeat(14), 'p'.repeat(13)],
    ['password', 'length at most 30', 'p'.repeat(30), 'p'.repeat(31)],
    ['password', 'RFC 3986 unreserved only', 'Abc-123._~xyzQ', 'Abc-123._~xyz!'],
    ['label', 'at most 30', 'l'.repeat(30), 'l'.repeat(31)],
    ['connections', 'integer 1 to 6', 6, 7],
    ['connections', 'at least 1', 1, 0],
    ['connections', 'integer', 2, 2.5],
    ['parental_code', 'exactly 4 digits', '0420', '042'],
    ['parental_code', 'digits only', '1234', '12a4'],
    ['macaddress', 'six hex pairs', '00:1A:79:12:34:56', '00:1A:79:12:34'],
    ['bouquets', 'array of numbers', [1, 2], ['x']],
    ['enabled', 'boolean', false, 'yes'],
  ];
  for (const [field, rule, good, wrong] of cases) {
    it(`${field}: ${rule}`, () => {
      ok(CreateLineBody, { ...base, [field]: good });
      bad(CreateLineBody, { ...base, [field]: wrong }, field);
    });
  }

  it('duration: 1, 3, 6, 12 months, number or numeric string', () => {
    for (const d of [1, 3, 6, 12, '1', '12']) ok(CreateLineBody, { duration: d });
    for (const d of [2, 24, '2', 'one', null]) bad(CreateLineBody, { duration: d }, 'duration');
    bad(CreateLineBody, {}, 'duration');
    expect(CreateLineBody.parse({ duration: '6' }).duration).toBe(6);
  });

  it('trial duration: 12, 24, 48 hours; no connections', () => {
    for (const d of [12, 24, 48, '24']) ok(CreateTrialBody, { duration: d });
    for (const d of [1, 6, 36]) bad(CreateTrialBody, { duration: d }, 'duration');
    bad(CreateTrialBody, { duration: 24, connections: 2 }, 'connections');
  });
});

describe('line identification, extend, upgrade, delete', () => {
  it('needs id (UUID) or username', () => {
    ok(LineIdentification, { id: UUID });
    ok(LineIdentification, { username: 'someone' });
    bad(LineIdentification, {});
    bad(LineIdentification, { id: 'not-a-uuid' }, 'id');
  });
  it('extend duration 1/3/6/12, as number or string', () => {
    ok(ExtendBody, { id: UUID, duration: '3' });
    bad(ExtendBody, { id: UUID, duration: 5 }, 'duration');
    bad(ExtendBody, { duration: 3 });
  });
  it('upgrade new_connections integer 1 to 6', () => {
    ok(UpgradeBody, { username: 'u', new_connections: 6 });
    bad(UpgradeBody, { username: 'u', new_connections: 0 }, 'new_connections');
    bad(UpgradeBody, { username: 'u' }, 'new_connections');
  });
  it('delete needs id or username; macaddress optional', () => {
    ok(DeleteBody, { id: UUID, macaddress: '00:1A:79:12:34:56' });
    bad(DeleteBody, { macaddress: '00:1A:79:12:34:56' });
  });
});

describe('list query (GET /v1/lines/all table)', () => {
  it('defaults', () => {
    expect(ListLinesQuery.parse({})).toEqual({
      offset: 0,
      limit: 20,
      status: 'all',
      type: 'all',
      orderBy: 'id',
      orderType: 'asc',
    });
    expect(ListLinesQuery.parse({ offset: null }).offset).toBe(0);
  });
  it('limit 1 to 100, offset >= 0, from strings too', () => {
    ok(ListLinesQuery, { limit: '100', offset: '40' });
    bad(ListLinesQuery, { limit: 0 }, 'limit');
    bad(ListLinesQuery, { limit: 101 }, 'limit');
    bad(ListLinesQuery, { offset: -1 }, 'offset');
    bad(ListLinesQuery, { offset: 'x' }, 'offset');
  });
  it('enums', () => {
    ok(ListLinesQuery, { status: 'expiring', type: 'trial', orderBy: 'exp_date', orderType: 'desc' });
    bad(ListLinesQuery, { status: 'expired' }, 'status');
    bad(ListLinesQuery, { type: 'regular' }, 'type');
    bad(ListLinesQuery, { orderBy: 'label' }, 'orderBy');
    bad(ListLinesQuery, { orderType: 'up' }, 'orderType');
    ok(PackagesQuery, { type: 'premium' });
    bad(PackagesQuery, { type: 'x' }, 'type');
  });
});

const line = {
  id: UUID,
  hostname: null,
  username: 'abcdefghijkl',
  password: 'abcdefghijklmn',
  label: 'x',
  enabled: true,
  connections: 2,
  is_trial: false,
  exp_date: '2026-12-01T10:00:00.000Z',
  start_date: '2026-11-01T10:00:00Z',
  created_at: null,
  macaddress: '00:1A:79:12:34:56',
  parental_code: '1234',
};

describe('responses', () => {
  it('line: extra fields ignored, nullable fields, list form without mac/parental', () => {
    const parsed = Line.parse({ ...line, future_field: 1 });
    expect(parsed).not.toHaveProperty('future_field');
    expect(parsed.exp_date?.ms).toBe(Date.parse('2026-12-01T10:00:00.000Z'));
    const { macaddress: _m, parental_code: _p, ...listForm } = line;
    ok(LineListItem, listForm);
    expect(Line.parse(listForm).macaddress).toBeNull();
    bad(Line, { ...line, enabled: 'yes' }, 'enabled');
  });
  it('a non-ISO date is kept raw and marked unparsed, never a crash', () => {
    const parsed = Line.parse({ ...line, exp_date: 'Tuesday, December 1st 2026, 10:00:00 am' });
    expect(parsed.exp_date).toEqual({ raw: 'Tuesday, December 1st 2026, 10:00:00 am', ms: null });
  });
  it('package, account, bouquets, pagination envelope', () => {
    ok(Package, {
      id: 1,
      package_name: '1 month',
      duration: 1,
      is_trial: false,
      credits_cost: 1,
      extra_connection_credits_cost: 0.5,
      min_balance: 0,
    });
    bad(
      Package,
      {
        id: 1.5,
        package_name: 'x',
        duration: 1,
        is_trial: false,
        credits_cost: 1,
        extra_connection_credits_cost: 0,
        min_balance: 0,
      },
      'id',
    );
    ok(Account, {
      email: 'a@b.c',
      credits: 10,
      lines_count: 2,
      server_information: { hostname: 'h', mag_portal_url: 'u' },
    });
    bad(Account, { email: 'a@b.c', credits: 10, lines_count: 2 }, 'server_information');
    ok(BouquetsResponse, { channels: [{ id: 1, label: 'News' }], movies: [] });
    const page = {
      offset: 0,
      limit: 20,
      totalHits: 1,
      totalReturns: 1,
      hasNextPage: false,
      hasPreviousPage: false,
      nextOffset: null,
      previousOffset: null,
      lines: [line],
    };
    ok(LinesPage, page);
    bad(LinesPage, { ...page, nextOffset: -1 }, 'nextOffset');
  });
  it('every error body of the Errors table', () => {
    ok(ErrorBody, {
      code: 'request_errors',
      message: 'bad',
      data: { errors: [{ code: 'too_small', message: 'short', path: ['username'] }] },
    });
    ok(ErrorBody, { code: 'not_authorized', message: 'no' });
    ok(ErrorBody, { code: 'rate_limit', message: 'slow down' });
    ok(ErrorBody, { code: 'server_error', message: 'boom', requestId: 'r-1' });
    ok(ErrorBody, { code: 'insufficient_balance', message: 'low', balance: 1, minBalance: 5 });
    ok(ErrorBody, { code: 'line_not_found', message: 'gone' });
    ok(MessageOnlyBody, { message: 'Username already exists' });
    bad(ErrorBody, { code: 'server_error', message: 'boom' });
    bad(ErrorBody, { code: 'insufficient_balance', message: 'low', balance: 1 });
  });
});

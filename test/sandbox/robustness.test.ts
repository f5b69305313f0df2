import { describe, expect, it } from 'vitest';
import { books, sandbox } from '../helpers/sandbox';

const errorPaths = (json: unknown) =>
  ((json as { data: { errors: Array<{ path: string[] }> } }).data.errors ?? []).map((e) => e.path.join('.'));

describe('bad input battery: every rule of the creation body answers 400 at its field and charges nothing', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['duration missing', {}, 'duration'],
    ['duration not allowed', { duration: 2 }, 'duration'],
    ['duration not a number', { duration: 'soon' }, 'duration'],
    ['username too short', { duration: 1, username: 'a'.repeat(11) }, 'username'],
    ['username too long', { duration: 1, username: 'a'.repeat(31) }, 'username'],
    ['username reserved characters', { duration: 1, username: 'abc def/ghijkl' }, 'username'],
    ['password too short', { duration: 1, password: 'p'.repeat(13) }, 'password'],
    ['password too long', { duration: 1, password: 'p'.repeat(31) }, 'password'],
    ['password reserved characters', { duration: 1, password: 'pass word!pass' }, 'password'],
    ['label too long', { duration: 1, label: 'l'.repeat(31) }, 'label'],
    ['connections zero', { duration: 1, connections: 0 }, 'connections'],
    ['connections seven', { duration: 1, connections: 7 }, 'connections'],
    ['connections fraction', { duration: 1, connections: 1.5 }, 'connections'],
    ['parental code three digits', { duration: 1, parental_code: '123' }, 'parental_code'],
    ['parental code letters', { duration: 1, parental_code: 'abcd' }, 'parental_code'],
    ['mac address malformed', { duration: 1, macaddress: 'zz:zz' }, 'macaddress'],
    ['bouquets not numbers', { duration: 1, bouquets: ['a'] }, 'bouquets.0'],
    ['bouquet unknown', { duration: 1, bouquets: [99999] }, 'bouquets.0'],
    ['enabled not boolean', { duration: 1, enabled: 'yes' }, 'enabled'],
  ];
  for (const [name, body, field] of cases) {
    it(name, async () => {
      const { sb, raw } = await sandbox();
      for (const path of ['/v1/lines', '/v1/lines/simulate']) {
        const res = await raw('POST', path, JSON.stringify(body));
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ code: 'request_errors' });
        expect(errorPaths(res.json)).toContain(field);
      }
      expect(books(sb).balance).toBe(1000);
      expect(books(sb).ledger).toHaveLength(0);
      expect(sb.repo.linesCount(1)).toBe(60);
    });
  }

  it('a trial body with connections is refused', async () => {
    const { raw } = await sandbox();
    const res = await raw('POST', '/v1/lines/trial', JSON.stringify({ duration: 24, connections: 2 }));
    expect(res.status).toBe(400);
    expect(errorPaths(res.json)).toContain('connections');
  });
});

describe('robustness', () => {
  it('malformed JSON, a body that is not an object, a wrong content type: 400 request_errors', async () => {
    const { raw } = await sandbox();
    for (const [body, headers] of [
      ['{"duration": 1', {}],
      ['[1,2]', {}],
      ['null', {}],
      ['duration=1', { 'content-type': 'application/x-www-form-urlencoded' }],
    ] as const) {
      const res = await raw('POST', '/v1/lines', body, headers);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'request_errors' });
    }
  });

  it('a body over 64 KiB: 413 JSON, nothing applied', async () => {
    const { sb, raw } = await sandbox();
    const res = await raw('POST', '/v1/lines', JSON.stringify({ duration: 1, label: 'x'.repeat(70_000) }));
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ code: 'request_errors' });
    expect(books(sb).balance).toBe(1000);
  });

  it('unknown route: 404 JSON; wrong method: 405 with Allow', async () => {
    const { raw } = await sandbox();
    const a = await raw('GET', '/v1/nope');
    expect(a.status).toBe(404);
    expect(a.json).toMatchObject({ message: expect.any(String) });
    const b = await raw('PATCH', '/v1/lines/extend', '{}');
    expect(b.status).toBe(405);
    expect(b.headers.allow).toBe('PUT');
  });

  it('invalid list parameters: 400', async () => {
    const { raw } = await sandbox();
    for (const q of [
      'limit=0',
      'limit=101',
      'offset=-1',
      'status=gone',
      'type=x',
      'orderBy=label',
      'orderType=up',
    ]) {
      const res = await raw('GET', `/v1/lines/all?${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it('a thrown handler error: 500 server_error whose requestId is in the log', async () => {
    const log: string[] = [];
    const { sb, raw } = await sandbox({ log: (l) => log.push(l) });
    sb.service.me = () => {
      throw new Error('disk on fire');
    };
    const res = await raw('GET', '/v1/me');
    expect(res.status).toBe(500);
    const { requestId } = res.json as { requestId: string };
    expect(requestId).toBeTruthy();
    expect(log.join('\n')).toContain(requestId);
    expect(log.join('\n')).toContain('disk on fire');
  });

  it('missing key: 401 before anything else', async () => {
    const { raw } = await sandbox();
    const res = await raw('GET', '/v1/me', undefined, { 'x-api-key': '' });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'not_authorized' });
  });
});

describe('rate limit', () => {
  it('a token bucket per key: bursts of 2N, then 429 with Retry-After and RateLimit headers', async () => {
    const { raw, second } = await sandbox({ rateLimit: 5 });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof raw>> | undefined;
    for (let i = 0; i < 12; i++) {
      const r = await raw('GET', '/v1/me');
      statuses.push(r.status);
      if (r.status === 429) limited ??= r;
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(10);
    expect(statuses).toContain(429);
    expect(limited!.json).toMatchObject({ code: 'rate_limit' });
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited!.headers['ratelimit-limit']).toBe('10');
    // another key has its own bucket
    await expect(second.me()).resolves.toBeTruthy();
  });

  it('checked before any side effect: a limited create charges nothing', async () => {
    const { sb, raw } = await sandbox({ rateLimit: 1 });
    await raw('GET', '/v1/me');
    await raw('GET', '/v1/me');
    const r = await raw('POST', '/v1/lines', JSON.stringify({ duration: 1 }));
    expect(r.status).toBe(429);
    expect(books(sb).balance).toBe(1000);
  });
});

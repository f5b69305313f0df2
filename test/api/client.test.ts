import dc from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import {
  ConfigError,
  Conflict,
  InsufficientBalance,
  type LinedeskError,
  LineNotFound,
  NetworkError,
  NotAuthorized,
  ProtocolError,
  RateLimited,
  RequestErrors,
  RequestValidationError,
  ServerError,
  TimeoutError,
} from '../../src/api/errors';
import { json, type Script, scriptedServer } from '../helpers/scripted-server';

const KEY = 'canary-KEY-9f3c2a7e51d04b88';
const UUID = '3f2b8c1e-9a4d-4f7e-8b21-5c6d7e8f9a01';
const LINE = {
  id: UUID,
  hostname: 'h',
  username: 'abcdefghijkl',
  password: 'abcdefghijklmn',
  label: '',
  enabled: true,
  connections: 1,
  is_trial: false,
  exp_date: null,
  start_date: null,
  created_at: null,
};

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups) await c();
  cleanups = [];
});

async function setup(script: Script, opts: Partial<Parameters<typeof createClient>[0]> = {}) {
  const server = await scriptedServer(script);
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    random: () => 0, // no jitter: retries are immediate unless Retry-After says otherwise
    ...opts,
  });
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return { server, client };
}

async function failure(p: Promise<unknown>): Promise<LinedeskError> {
  try {
    await p;
  } catch (e) {
    return e as LinedeskError;
  }
  throw new Error('expected a failure');
}

describe('endpoints', () => {
  it('sends each of the 13 to its path and method with the key and JSON', async () => {
    const { server, client } = await setup((req, res) => {
      const charge = { line: LINE, deducedCredits: 1, newBalance: 9 };
      const answers: Record<string, unknown> = {
        'GET /v1/me': {
          email: 'a@b.c',
          credits: 1,
          lines_count: 0,
          server_information: { hostname: 'h', mag_portal_url: 'm' },
        },
        'GET /v1/packages': { packages: [] },
        'GET /v1/bouquets': { channels: [], movies: [] },
        'GET /v1/lines/all': {
          offset: 0,
          limit: 5,
          totalHits: 0,
          totalReturns: 0,
          hasNextPage: false,
          hasPreviousPage: false,
          nextOffset: null,
          previousOffset: null,
          lines: [],
        },
        'POST /v1/lines': charge,
        'POST /v1/lines/trial': charge,
        'POST /v1/lines/simulate': { cost: 1 },
        'POST /v1/lines/simulate/trial': { cost: 0 },
        'PUT /v1/lines/extend': charge,
        'PUT /v1/lines/upgrade': charge,
        'PUT /v1/lines/simulate/upgrade': { cost: 2 },
        'PUT /v1/lines/unsuspend': LINE,
        'DELETE /v1/lines': { success: true },
      };
      json(res, 200, answers[`${req.method} ${req.url.split('?')[0]}`] ?? {});
    });
    await client.me();
    await client.packages({ type: 'trial' });
    await client.bouquets();
    await client.listLines({ limit: 5, search: 'abc', status: 'expiring' });
    await client.createLine({ duration: '3', connections: 2 });
    await client.createTrial({ duration: 24 });
    await client.simulateCreate({ duration: 1 });
    await client.simulateTrial({ duration: 12 });
    await client.extendLine({ id: UUID, duration: 1 });
    await client.upgradeLine({ username: 'abcdefghijkl', new_connections: 3 });
    await client.simulateUpgrade({ username: 'abcdefghijkl', new_connections: 3 });
    await client.unsuspendLine({ id: UUID });
    expect(await client.deleteLine({ id: UUID })).toEqual({ success: true });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/me',
      'GET /v1/packages?type=trial',
      'GET /v1/bouquets',
      'GET /v1/lines/all?offset=0&limit=5&status=expiring&type=all&search=abc&orderBy=id&orderType=asc',
      'POST /v1/lines',
      'POST /v1/lines/trial',
      'POST /v1/lines/simulate',
      'POST /v1/lines/simulate/trial',
      'PUT /v1/lines/extend',
      'PUT /v1/lines/upgrade',
      'PUT /v1/lines/simulate/upgrade',
      'PUT /v1/lines/unsuspend',
      'DELETE /v1/lines',
    ]);
    for (const r of server.requests) expect(r.headers['x-api-key']).toBe(KEY);
    expect(JSON.parse(server.requests[4]!.body)).toEqual({ duration: 3, connections: 2 });
    expect(server.requests[4]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[12]!.body)).toEqual({ id: UUID });
  });

  it('an invalid request is refused with field paths and never sent', async () => {
    const { server, client } = await setup((_q, res) => json(res, 200, {}));
    const e = await failure(client.createLine({ duration: 2, username: 'short', parental_code: '12' }));
    expect(e).toBeInstanceOf(RequestValidationError);
    expect(e.outcome).toBe('not_sent');
    expect((e as RequestValidationError).issues.map((i) => i.path[0])).toEqual([
      'duration',
      'username',
      'parental_code',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('a 2xx body that breaks the contract is a ProtocolError naming the field, outcome unknown', async () => {
    const { client } = await setup((_q, res) =>
      json(res, 200, { line: LINE, deducedCredits: 'some', newBalance: 1 }),
    );
    const e = await failure(client.extendLine({ id: UUID, duration: 1 }));
    expect(e).toBeInstanceOf(ProtocolError);
    expect((e as ProtocolError).path).toBe('deducedCredits');
    expect(e.outcome).toBe('unknown');
  });
});

describe('every row of the Errors table', () => {
  const rows: Array<[string, number, unknown, new (...a: never[]) => Error, (e: never) => void]> = [
    [
      'request_errors',
      400,
      {
        code: 'request_errors',
        message: 'Invalid',
        data: { errors: [{ code: 'too_small', message: 'too short', path: ['username'] }] },
      },
      RequestErrors,
      (e: RequestErrors) => expect(e.issues[0]?.path).toEqual(['username']),
    ],
    ['not_authorized', 401, { code: 'not_authorized', message: 'Invalid key' }, NotAuthorized, () => {}],
    [
      'rate_limit',
      429,
      { code: 'rate_limit', message: 'Too many' },
      RateLimited,
      (e: RateLimited) => expect(e.retryAfterMs).toBe(2000),
    ],
    [
      'server_error',
      500,
      { code: 'server_error', message: 'Boom', requestId: 'req-42' },
      ServerError,
      (e: ServerError) => {
        expect(e.requestId).toBe('req-42');
        expect(e.outcome).toBe('unknown');
      },
    ],
    [
      'insufficient_balance',
      402,
      { code: 'insufficient_balance', message: 'Low', balance: 3, minBalance: 10 },
      InsufficientBalance,
      (e: InsufficientBalance) => {
        expect(e.balance).toBe(3);
        expect(e.minBalance).toBe(10);
      },
    ],
    ['line_not_found', 404, { code: 'line_not_found', message: 'No line' }, LineNotFound, () => {}],
    [
      'message-only',
      409,
      { message: 'Selected duration not available' },
      Conflict,
      (e: Conflict) => expect(e.message).toBe('Selected duration not available'),
    ],
    // The code decides even when the status says something else.
    [
      'line_not_found under an odd status',
      400,
      { code: 'line_not_found', message: 'No line' },
      LineNotFound,
      () => {},
    ],
  ];
  for (const [name, status, body, cls, check] of rows) {
    it(`${name} (${status})`, async () => {
      const { server, client } = await setup((_q, res) => json(res, status, body, { 'retry-after': '2' }));
      const e = await failure(client.extendLine({ id: UUID, duration: 1 }));
      expect(e).toBeInstanceOf(cls);
      check(e as never);
      expect(server.requests).toHaveLength(1); // a mutation is never re-sent
      if (status < 500) expect(e.outcome).toBe('rejected');
    });
  }
});

describe('retries', () => {
  it('a GET that meets 503 then 200 succeeds', async () => {
    const { server, client } = await setup((_q, res, n) =>
      n === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { channels: [], movies: [] }),
    );
    expect(await client.bouquets()).toEqual({ channels: [], movies: [], skipped: [] });
    expect(server.requests).toHaveLength(2);
  });

  it('a simulate call is a read: retried on 502', async () => {
    const { server, client } = await setup((_q, res, n) =>
      n < 3 ? json(res, 502, {}) : json(res, 200, { cost: 4 }),
    );
    expect(await client.simulateCreate({ duration: 1 })).toEqual({ cost: 4 });
    expect(server.requests).toHaveLength(3);
  });

  it('reads give up after the attempt limit', async () => {
    const { server, client } = await setup((_q, res) => json(res, 503, {}), { retry: { maxAttempts: 3 } });
    expect(await failure(client.me())).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
  });

  it('a mutation whose reply is lost is sent exactly once, outcome unknown', async () => {
    // The server takes the request, then the connection drops before any reply ("applied, reply lost").
    const { server, client } = await setup((_q, res) => {
      res.socket?.destroy();
    });
    const e = await failure(client.extendLine({ id: UUID, duration: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.outcome).toBe('unknown');
    expect(server.requests).toHaveLength(1);
  });

  it('a reply cut short in its body is a lost reply: a mutation is sent once, outcome unknown', async () => {
    const { server, client } = await setup((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"line":{"id":');
      setImmediate(() => res.socket?.destroy());
    });
    const e = await failure(client.extendLine({ id: UUID, duration: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.outcome).toBe('unknown');
    expect(server.requests).toHaveLength(1);
  });

  it('a body beyond 16 MB is refused, not read to the end, and not fetched again', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 32);
    const { client, server } = await setup((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const more = () => {
        while (sent < 40 && res.write(chunk)) sent++;
        if (sent < 40 && !res.destroyed) res.once('drain', more);
        else res.end();
      };
      more();
    });
    const e = await failure(client.me());
    expect(e.message, e.message).toContain('exceeds 16777216 bytes');
    // Our own verdict, not a network failure: a read is not fetched again.
    expect(server.requests).toHaveLength(1);
  });

  // EHOSTUNREACH and its kin usually mean "never connected", but Linux also ends established
  // connections with them (routing errors after sleep or a network change), after the request left.
  for (const code of [
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ECONNREFUSED',
    'EADDRNOTAVAIL',
    'ENOTFOUND',
    'EAI_AGAIN',
  ]) {
    it(`a connection that dies with ${code} after the request left: sent once, outcome unknown`, async () => {
      let current: ClientRequest | undefined;
      const onStart = ({ request }: { request: ClientRequest }) => {
        current = request;
      };
      dc.subscribe('http.client.request.start', onStart as never);
      cleanups.push(async () => {
        dc.unsubscribe('http.client.request.start', onStart as never);
      });
      const { server, client } = await setup(() => {
        current?.socket?.destroy(Object.assign(new Error(`read ${code}`), { code }));
      });
      const e = await failure(client.extendLine({ id: UUID, duration: 1 }));
      expect(e.outcome).toBe('unknown');
      expect(server.requests).toHaveLength(1);
    });
  }

  it('an answer that closes the request with no response (101) fails at once, not at the deadline', async () => {
    const { server, client } = await setup(
      (_q, res) => {
        res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n');
      },
      { deadlineMs: 60_000 },
    );
    const e = await failure(client.extendLine({ id: UUID, duration: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.outcome).toBe('unknown');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the connection alive between requests (one TCP connection for several)', async () => {
    const { server, client } = await setup((_q, res) => json(res, 200, { balance: 5 }));
    for (let i = 0; i < 4; i++) await client.me().catch(() => {});
    expect(server.requests).toHaveLength(4);
    expect(server.connections()).toBe(1);
  });

  it('a mutation that meets 503 or 500 is not re-sent', async () => {
    const { server, client } = await setup((_q, res) => json(res, 503, { message: 'busy' }));
    const e = await failure(client.createLine({ duration: 1 }));
    expect(e.outcome).toBe('unknown');
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 on a mutation is surfaced with Retry-After, not retried', async () => {
    const { server, client } = await setup((_q, res) =>
      json(res, 429, { code: 'rate_limit', message: 'slow' }, { 'retry-after': '7' }),
    );
    const e = (await failure(client.upgradeLine({ id: UUID, new_connections: 2 }))) as RateLimited;
    expect(e).toBeInstanceOf(RateLimited);
    expect(e.retryAfterMs).toBe(7000);
    expect(e.outcome).toBe('rejected');
    expect(server.requests).toHaveLength(1);
  });

  it('a GET waits as long as Retry-After says before trying again', async () => {
    const times: number[] = [];
    const { client } = await setup((_q, res, n) => {
      times.push(Date.now());
      if (n === 1) json(res, 429, { code: 'rate_limit', message: 'slow' }, { 'retry-after': '1' });
      else json(res, 200, { channels: [], movies: [] });
    });
    await client.bouquets();
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('a Retry-After beyond the time budget is not waited for', async () => {
    const { server, client } = await setup(
      (_q, res) => json(res, 429, { code: 'rate_limit', message: 'slow' }, { 'retry-after': '3600' }),
      {
        retry: { budgetMs: 2_000, maxRetryAfterMs: 60_000 },
      },
    );
    const e = (await failure(client.me())) as RateLimited;
    expect(e).toBeInstanceOf(RateLimited);
    expect(e.retryAfterMs).toBe(60_000);
    expect(server.requests).toHaveLength(1);
  });

  it('connection refused proves nothing was sent: outcome not_sent', async () => {
    const s = await scriptedServer(() => {});
    const url = s.baseUrl;
    await s.close();
    const client = createClient({ baseUrl: url, apiKey: KEY, random: () => 0, retry: { maxAttempts: 2 } });
    cleanups.push(() => client.close());
    const e = await failure(client.createLine({ duration: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.outcome).toBe('not_sent');
  });
});

describe('deadlines', () => {
  it('a request with no answer ends at its deadline: a read retries, a mutation does not', async () => {
    const { server, client } = await setup(() => {}, { deadlineMs: 300, retry: { maxAttempts: 2 } });
    const e = await failure(client.extendLine({ id: UUID, duration: 1 }));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.outcome).toBe('unknown');
    expect(server.requests).toHaveLength(1);
    expect(await failure(client.me())).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(3);
  });
});

describe('the API key', () => {
  it('appears in no error, even when the server echoes it', async () => {
    const { client } = await setup(
      (req, res) => {
        const key = String(req.headers['x-api-key']);
        if (req.url.startsWith('/v1/me'))
          json(res, 500, { code: 'server_error', message: `bad key ${key}`, requestId: key });
        else if (req.url.startsWith('/v1/bouquets')) json(res, 200, { channels: key });
        else json(res, 401, { code: 'not_authorized', message: `key ${key} unknown` });
      },
      { retry: { maxAttempts: 1 } },
    );
    const errors = [
      await failure(client.me()),
      await failure(client.bouquets()),
      await failure(client.packages()),
      await failure(client.extendLine({ id: UUID, duration: 1 })),
    ];
    for (const e of errors) {
      const everything = `${e.message}\n${e.stack}\n${inspect(e, { depth: 5 })}\n${JSON.stringify(e)}`;
      expect(everything).not.toContain(KEY);
    }
  });
});

describe('base URL', () => {
  it('refuses plain http to a non-loopback host before any connection', () => {
    expect(() => createClient({ baseUrl: 'http://panel.example.com', apiKey: KEY })).toThrow(ConfigError);
    expect(() => createClient({ baseUrl: 'http://10.0.0.5:8080', apiKey: KEY })).toThrow(/https/);
    expect(() => createClient({ baseUrl: 'https://user:pw@panel.example.com', apiKey: KEY })).toThrow(
      ConfigError,
    );
  });
  it('accepts https anywhere and http on loopback', async () => {
    for (const url of [
      'https://panel.example.com/api/',
      'http://127.0.0.1:7411',
      'http://[::1]:7411',
      'http://localhost:1',
    ]) {
      const c = createClient({ baseUrl: url, apiKey: KEY });
      await c.close();
    }
  });
  it('a redirect is not followed, so the key never reaches another origin', async () => {
    const other = await scriptedServer((_q, res) => json(res, 200, { channels: [], movies: [] }));
    const { client } = await setup((_q, res) => {
      res.writeHead(302, { location: `${other.baseUrl}/v1/bouquets` });
      res.end();
    });
    cleanups.push(other.close);
    await failure(client.bouquets());
    expect(other.requests).toHaveLength(0);
  });
});

/**
 * Only a refusal the interface documents proves a credit-spending request was not applied. Every other
 * answer — a redirect, a proxy's HTML page at any status, a JSON body with a code the interface does
 * not list, a documented body under a 5xx — leaves the outcome unknown (it may be applied behind it),
 * and the request is never re-sent. Generated over statuses, bodies and content types.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LinedeskError } from '../../src/api/errors';
import { scriptedServer } from '../helpers/scripted-server';

const UUID = '3f2b8c1e-9a4d-4f7e-8b21-5c6d7e8f9a01';
type Answer = { status: number; type: string; body: string; location?: string };
let answer: Answer = { status: 200, type: 'application/json', body: '{}' };
let server: Awaited<ReturnType<typeof scriptedServer>>;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  server = await scriptedServer((_q, res) => {
    res.writeHead(answer.status, {
      'content-type': answer.type,
      ...(answer.location ? { location: answer.location } : {}),
    });
    res.end(answer.body);
  });
  client = createClient({ baseUrl: server.baseUrl, apiKey: 'k-verdicts-0001', random: () => 0 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const outcomeOf = async (a: Answer) => {
  answer = a;
  const before = server.requests.length;
  try {
    await client.extendLine({ id: UUID, duration: 1 });
    throw new Error('expected a failure');
  } catch (e) {
    expect(server.requests.length - before, 'a mutation is sent once').toBe(1);
    return (e as LinedeskError).outcome;
  }
};

const documented = [
  [
    400,
    {
      code: 'request_errors',
      message: 'bad',
      data: { errors: [{ code: 'x', message: 'm', path: ['duration'] }] },
    },
  ],
  [401, { code: 'not_authorized', message: 'no' }],
  [429, { code: 'rate_limit', message: 'slow' }],
  [402, { code: 'insufficient_balance', message: 'low', balance: 1, minBalance: 5 }],
  [404, { code: 'line_not_found', message: 'gone' }],
  [409, { message: 'Selected duration not available' }],
] as const;

describe('verdicts of a credit-spending request', () => {
  it('each documented refusal (a 4xx whose body has the documented shape) is "rejected"', async () => {
    for (const [status, body] of documented)
      expect(await outcomeOf({ status, type: 'application/json', body: JSON.stringify(body) })).toBe(
        'rejected',
      );
  });

  it('a 303 after applying, a proxy 504 page, an HTML 404: unknown, never a refusal', async () => {
    expect(await outcomeOf({ status: 303, type: 'text/plain', body: '', location: '/v1/lines/other' })).toBe(
      'unknown',
    );
    const page = '<html><body><h1>504 Gateway Time-out</h1></body></html>';
    expect(await outcomeOf({ status: 504, type: 'text/html', body: page })).toBe('unknown');
    expect(await outcomeOf({ status: 404, type: 'text/html', body: '<h1>Not Found</h1>' })).toBe('unknown');
    expect(
      await outcomeOf({ status: 502, type: 'application/json', body: '{"message":"Bad Gateway"}' }),
    ).toBe('unknown');
  });

  it('property: any answer that is not a documented 4xx refusal is unknown', async () => {
    const body = fc.oneof(
      fc.constant('<html>Gateway Time-out</html>'),
      fc.constant(''),
      fc.string({ maxLength: 20 }),
      fc.constant('{"code":"maintenance","message":"later"}'),
      fc.constant('{"error":"upstream"}'),
      // A documented body under a status that says the server (or a proxy) failed.
      fc.constantFrom(...documented.map(([, b]) => JSON.stringify(b))),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 300, max: 399 }), fc.integer({ min: 400, max: 599 })),
        body,
        fc.constantFrom('text/html', 'application/json', 'text/plain'),
        async (status, text, type) => {
          // The message-only body has no code: under 401 or 429, whose own documented bodies have
          // one, it is not that refusal, and stays unknown (the safe side).
          const messageOnly = !text.includes('"code"');
          const isDocumentedBody =
            documented.some(([, b]) => JSON.stringify(b) === text) &&
            !(messageOnly && (status === 401 || status === 429));
          const outcome = await outcomeOf({ status, type, body: text });
          if (status >= 400 && status < 500 && isDocumentedBody) expect(outcome).toBe('rejected');
          else expect(outcome, `${status} ${type} ${text}`).toBe('unknown');
        },
      ),
      { numRuns: 200 },
    );
  });
});

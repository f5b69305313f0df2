import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { AbortedError } from '../../src/api/errors';
import { json, scriptedServer } from '../helpers/scripted-server';
import { until } from '../helpers/wait';

// `onAnswered` lets a walk ask for its next page while this one is read (issue 27): it must come as
// the reply ends, once, only for a reply in hand, and before this process does anything else with it.

const page = (offset: number) => ({
  offset,
  limit: 1,
  totalHits: 1,
  totalReturns: 0,
  hasNextPage: false,
  hasPreviousPage: false,
  nextOffset: null,
  previousOffset: null,
  lines: [],
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function setup(script: Parameters<typeof scriptedServer>[0]) {
  const server = await scriptedServer(script);
  const seen: string[] = [];
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: 'k',
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    onEvent: (e) => seen.push(`event ${e.status}`),
  });
  close = async () => {
    await client.close();
    await server.close();
  };
  return { server, client, seen };
}

describe('onAnswered', () => {
  it('comes as a 2xx reply ends, before the attempt is logged or the call resolves', async () => {
    const { client, seen } = await setup((_req, res) => json(res, 200, page(0)));
    const call = client.listLines({ limit: 1, offset: 0 }, { onAnswered: () => seen.push('answered') });
    const result = await call.then(() => seen.push('resolved'));
    expect(result).toBeGreaterThan(0);
    expect(seen).toEqual(['answered', 'event 200', 'resolved']);
  });

  it('comes once, for the reply in hand: not for a 503 read that is tried again', async () => {
    const { server, client, seen } = await setup((_req, res, n) =>
      n === 1 ? json(res, 503, { code: 'unavailable', message: 'busy' }) : json(res, 200, page(0)),
    );
    let requestsAtAnswer = -1;
    await client.listLines(
      { limit: 1, offset: 0 },
      {
        onAnswered: () => {
          seen.push('answered');
          requestsAtAnswer = server.requests.length;
        },
      },
    );
    expect(seen).toEqual(['event 503', 'answered', 'event 200']);
    expect(requestsAtAnswer).toBe(2);
  });
});

describe('a request made ahead (`after`)', () => {
  it('is made at once but reaches the server only once `after` fulfils', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, page(0)));
    let go!: () => void;
    const after = new Promise<void>((r) => {
      go = r;
    });
    const call = client.listLines({ limit: 1, offset: 0 }, { after });
    // Its connection is made while it waits, and nothing is written on it.
    await until(() => server.connections() === 1);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(server.requests).toHaveLength(0);
    go();
    await call;
    expect(server.requests).toHaveLength(1);
  });

  it('ends unsent when `after` rejects: never received, never tried again, said as not sent', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, page(0)));
    const after = Promise.reject(new Error('not wanted'));
    after.catch(() => {});
    const err = await client.listLines({ limit: 1, offset: 0 }, { after }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect((err as AbortedError).outcome).toBe('not_sent');
    // A later request on the same client is sent as usual, on a connection kept.
    await client.listLines({ limit: 1, offset: 0 });
    expect(server.requests).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { json, scriptedServer } from '../helpers/scripted-server';

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

// What `onAnswered` promises from the HTTP layer's `onComplete` — once a call across
// retries, never for a reply cut short, too big or aborted, and a throw in it breaks nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { json, scriptedServer } from '../helpers/scripted-server';

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
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: 'k',
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
  });
  close = async () => {
    await client.close();
    await server.close();
  };
  return { server, client };
}

describe('onAnswered (review)', () => {
  it('a throw in it neither hangs nor breaks the call, and it is not called again', async () => {
    const { client } = await setup((_req, res) => json(res, 200, page(0)));
    let calls = 0;
    const got = await client.listLines(
      { limit: 1, offset: 0 },
      {
        onAnswered: () => {
          calls++;
          throw new Error('boom');
        },
      },
    );
    expect(got.offset).toBe(0);
    expect(calls).toBe(1);
  });

  it('is not called for a 200 cut short; once for the full reply the retry gets', async () => {
    const { server, client } = await setup((_req, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
        res.write('{"offset":0');
        setTimeout(() => res.socket?.destroy(), 10);
        return;
      }
      json(res, 200, page(0));
    });
    let calls = 0;
    let requestsAtAnswer = -1;
    await client.listLines(
      { limit: 1, offset: 0 },
      {
        onAnswered: () => {
          calls++;
          requestsAtAnswer = server.requests.length;
        },
      },
    );
    expect(calls).toBe(1);
    expect(requestsAtAnswer).toBe(2);
  });

  it('is not called for a 200 whose body is too big', async () => {
    const big = `{"offset":0,"pad":"${'x'.repeat(17 * 1024 * 1024)}"}`;
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big);
    });
    let calls = 0;
    await expect(
      client.listLines({ limit: 1, offset: 0 }, { onAnswered: () => void calls++ }),
    ).rejects.toThrow(/exceeds/);
    expect(calls).toBe(0);
  });

  it('is not called for a 200 the caller aborts mid-body', async () => {
    const ac = new AbortController();
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"offset":0');
      setTimeout(() => ac.abort(), 10);
    });
    let calls = 0;
    await expect(
      client.listLines({ limit: 1, offset: 0 }, { signal: ac.signal, onAnswered: () => void calls++ }),
    ).rejects.toThrow();
    expect(calls).toBe(0);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { backoffDelay, DEFAULT_RETRY, rateLimitHint, rateLimitPause } from '../../src/api/retry';
import type { BulkJob } from '../../src/domain/bulk';
import { runJob } from '../../src/services/changes/engine';
import { json, scriptedServer } from '../helpers/scripted-server';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const UUID = '7f6c1b7e-1111-4222-8333-944445555666';
const job: BulkJob = {
  id: 'job',
  op: 'extend',
  months: 1,
  connections: 1,
  target: 't',
  createdAt: '2026-11-22T00:00:00Z',
  balanceBefore: 100,
  lines: [
    {
      id: UUID,
      username: 'alice00000001',
      before: { expMs: 0, connections: 1, enabled: true, isTrial: false },
      cost: 1,
      after: {},
      state: 'pending',
    },
  ],
};

describe('429 with a Retry-After that says "now" (item 8)', () => {
  it.each([
    ['0', '0'],
    ['a date in the past', 'Wed, 21 Oct 2015 07:28:00 GMT'],
    ['garbage', 'soon-ish'],
    ['nothing', null],
  ])('Retry-After %s: a job waits at least 250 ms between attempts', async (_name, value) => {
    const server = await scriptedServer((_req, res) =>
      json(
        res,
        429,
        { code: 'rate_limit', message: 'slow down' },
        value === null ? {} : { 'retry-after': value },
      ),
    );
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k', retry: { maxAttempts: 1 } });
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    // A virtual clock: sleeping advances it, so ten seconds pass in no time.
    let t = 0;
    const final = await runJob(job, {
      client,
      onLine: () => {},
      now: () => t,
      sleep: async (ms) => {
        t += ms;
      },
      cancelled: () => t >= 10_000,
    });
    // It used to send about 10,000 requests in 10 s; the floor allows at most one per 250 ms.
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.requests.length).toBeLessThanOrEqual(10_000 / 250 + 1);
    expect(final.lines[0]!.state).toBe('cancelled'); // a 429 proves nothing was applied
  });
});

describe('backoff arithmetic', () => {
  it('never below the floor, at least the hint, capped', () => {
    for (const r of [0, 0.5, 0.999])
      for (let k = 0; k < 12; k++) {
        expect(backoffDelay(DEFAULT_RETRY, k, () => r)).toBeGreaterThanOrEqual(250);
        expect(backoffDelay(DEFAULT_RETRY, k, () => r)).toBeLessThanOrEqual(DEFAULT_RETRY.maxDelayMs);
        expect(rateLimitPause(DEFAULT_RETRY, k, 0, () => r)).toBeGreaterThanOrEqual(250);
        expect(rateLimitPause(DEFAULT_RETRY, k, 9_000, () => r)).toBe(9_000);
        expect(rateLimitPause(DEFAULT_RETRY, k, 10 ** 9, () => r)).toBe(DEFAULT_RETRY.maxRetryAfterMs);
      }
    // Exponential while 429s continue: the ceiling doubles.
    expect(rateLimitPause(DEFAULT_RETRY, 4, null, () => 0.999)).toBeGreaterThan(
      rateLimitPause(DEFAULT_RETRY, 1, null, () => 0.999),
    );
  });

  it('RateLimit-* and X-RateLimit-* headers when the window is spent', () => {
    const now = 1_700_000_000_000;
    expect(rateLimitHint({ 'retry-after': '3' }, now, 30_000)).toBe(3_000);
    expect(rateLimitHint({ 'ratelimit-remaining': '0', 'ratelimit-reset': '2' }, now, 30_000)).toBe(2_000);
    expect(
      rateLimitHint(
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 5) },
        now,
        30_000,
      ),
    ).toBe(5_000);
    expect(rateLimitHint({ 'x-ratelimit-reset': String(now / 1000 + 5) }, now, 30_000)).toBe(5_000);
    expect(rateLimitHint({ 'ratelimit-remaining': '7', 'ratelimit-reset': '2' }, now, 30_000)).toBeNull();
    expect(rateLimitHint({ 'ratelimit-reset': 'later' }, now, 30_000)).toBeNull();
    expect(rateLimitHint({ 'retry-after': '9999' }, now, 30_000)).toBe(30_000);
  });
});

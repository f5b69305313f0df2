/**
 * A keep-alive socket the service closed in an outage is not the next request's road: the transport
 * drops its idle pooled sockets once a request fails on the connection, so a change sent right after
 * goes out on a new connection, whose refusal proves it never left ("not sent"). Before, it went out
 * on a pooled socket already closed under it and, rightly, counted as "may have left" (unknown).
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { type LinedeskError, NetworkError } from '../../src/api/errors';
import { faultProxy } from '../helpers/fault-proxy';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';

describe('pooled sockets after the service went away', () => {
  it('the request after a connection error does not go out on a pooled socket the outage closed', async () => {
    const env = await sandbox({ lines: 10 });
    let down: Promise<void> | null = null;
    let read = () => {};
    const readDone = new Promise<void>((r) => {
      read = r;
    });
    // The service goes away as the first extend is applied: every connection closed (the oldest
    // first), none taken.
    const proxy = await faultProxy(env.sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'slow', ms: 0 } }],
      onFault: () => {
        down = proxy.down();
      },
      // The first list waits until a read on a second connection is answered: two sockets in the
      // pool, the first connection freed last (the one the next request takes).
      onList: (nth) => (nth === 1 ? readDone : undefined),
    });
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(async () => {
      await client.close();
      await proxy.close();
    });
    const [first, second] = (await env.client.listLines({ limit: 10, type: 'premium' })).lines;
    const listing = client.listLines({ limit: 10 });
    await client.me().then(read);
    await listing;
    const lost = await client.extendLine({ id: first!.id, duration: 1 }).catch((e: LinedeskError) => e);
    expect(lost).toBeInstanceOf(NetworkError);
    expect((lost as NetworkError).outcome).toBe('unknown');
    const charged = books(env.sb).ledger.length;
    // Sent at once, as a bulk job's next line is.
    const next = await client.extendLine({ id: second!.id, duration: 1 }).catch((e: LinedeskError) => e);
    await down;
    expect(books(env.sb).ledger.length).toBe(charged);
    expect(next).toBeInstanceOf(NetworkError);
    expect((next as NetworkError).outcome).toBe('not_sent');
    expect((next as NetworkError).code).toBe('ECONNREFUSED');
  });
});

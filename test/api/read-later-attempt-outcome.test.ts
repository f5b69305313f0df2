// A read retried after an attempt that reached the server keeps that in its outcome: when it ends
// on a later attempt that never left (aborted before its connection was made, or refused), it is
// "unknown", not "not sent" — the same rule as a read aborted while it waits between attempts.

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { z } from 'zod';
import type { LinedeskError } from '../../src/api/errors';
import { Transport } from '../../src/api/http';
import { cleanups } from '../helpers/wait';

/** A raw server that reads each request whole, then resets its connection (the request arrived). */
async function resettingServer() {
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    let buf = '';
    s.on('data', (d) => {
      buf += d.toString('latin1');
      if (buf.includes('\r\n\r\n')) {
        received++;
        s.resetAndDestroy();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  cleanups.push(close);
  return { port, received: () => received, close };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as LinedeskError,
  );

it('a read aborted on its second attempt, before that one connected, after the first reached the server: unknown', async () => {
  const srv = await resettingServer();
  const abort = new AbortController();
  let lookups = 0;
  const t = new Transport({
    baseUrl: new URL(`http://localhost:${srv.port}`),
    apiKey: 'lds_test-key-0123456789',
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    // Each new connection looks the name up: the second attempt's is where its caller gives up.
    lookup: async () => {
      if (++lookups === 2) abort.abort();
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });
  cleanups.push(() => t.close());
  const e = await failure(
    t.send('GET', '/v1/lines/all', z.unknown(), { kind: 'read', signal: abort.signal }),
  );
  expect(srv.received()).toBe(1);
  expect(lookups).toBe(2);
  expect(e.outcome).toBe('unknown');
});

it('a read whose last attempt is refused after the first reached the server: unknown', async () => {
  const srv = await resettingServer();
  let lookups = 0;
  const t = new Transport({
    baseUrl: new URL(`http://localhost:${srv.port}`),
    apiKey: 'lds_test-key-0123456789',
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    lookup: async () => {
      // The service goes away once it has the first request: the second attempt is refused.
      if (++lookups === 2) await srv.close();
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });
  cleanups.push(() => t.close());
  const e = await failure(t.send('GET', '/v1/lines/all', z.unknown(), { kind: 'read' }));
  expect(srv.received()).toBe(1);
  expect(lookups).toBe(2);
  expect(e.outcome).toBe('unknown');
});

it("a key that is part of an outcome's word leaves the outcome whole (the key is redacted from the words, not the verdict)", async () => {
  const srv = await resettingServer();
  const t = new Transport({
    baseUrl: new URL(`http://localhost:${srv.port}`),
    apiKey: 'nk',
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  cleanups.push(() => t.close());
  const e = await failure(t.send('GET', '/v1/lines/all', z.unknown(), { kind: 'read' }));
  expect(srv.received()).toBe(1);
  expect(e.outcome).toBe('unknown');
});

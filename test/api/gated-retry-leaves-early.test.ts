// a request made ahead (`after`) holds a socket and writes nothing until its gate
// opens. When that socket closes under it before then (a server's keep-alive/idle close, a restart),
// the transport retries it as a read — and the retry drops `after` ("a retry leaves at once"): the
// page leaves before the page before it was answered.
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';

const page = (offset: number) => ({
  offset,
  limit: 1,
  totalHits: 2,
  totalReturns: 1,
  hasNextPage: offset === 0,
  hasPreviousPage: offset > 0,
  nextOffset: offset === 0 ? 1 : null,
  previousOffset: null,
  lines: [],
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

it('a gated request whose idle socket closes before its gate opens still waits for the gate', async () => {
  const events: string[] = [];
  const sockets = new Set<Socket>();
  let sawSecond: () => void = () => {};
  const second = new Promise<void>((r) => {
    sawSecond = r;
  });
  const server = createServer(async (req, res) => {
    const offset = new URL(req.url ?? '/', 'http://x').searchParams.get('offset');
    events.push(`asked ${offset}`);
    if (offset === '0') {
      // The server closes the connection that sits idle (the request made ahead holds it).
      for (const s of sockets) if (s !== req.socket) s.destroy();
      // Answer once the second page arrived (the bug) or a while passed (none came early).
      await Promise.race([second, new Promise((r) => setTimeout(r, 300))]);
      events.push('answered 0');
    } else sawSecond();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(page(Number(offset))));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = createClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'k',
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
  });
  cleanup = async () => {
    await client.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const first = client.listLines({ offset: 0, limit: 1 }, { onAnswered: () => open() });
  // Made ahead, once the first request is made: it leaves when the first is answered.
  const next = client.listLines({ offset: 1, limit: 1 }, { after: gate });
  await Promise.allSettled([first, next]);
  expect(events.indexOf('asked 1')).toBeGreaterThan(events.indexOf('answered 0'));
});

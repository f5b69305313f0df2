/**
 * Plain http carries the key in clear, so it is allowed only to this machine, and a name is trusted
 * for what it resolves to when the connection is made (a hosts file or a resolver may send
 * `shop.localhost`, even `localhost`, elsewhere). The refusal comes before any socket connects.
 */
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { ConfigError, type LinedeskError } from '../../src/api/errors';
import { checkedLookup, NodeHttp, type Resolver } from '../../src/api/node-http';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { json, scriptedServer } from '../helpers/scripted-server';

const KEY = 'canary-KEY-loopback-5d1e7a93';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups) await c();
  cleanups = [];
});

/**
 * An address of this machine that is not loopback, where a server can listen and count what reaches
 * it; without one (a machine with only `lo`), a TEST-NET address nothing answers on.
 */
const OUTSIDE =
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === 'IPv4')?.address ?? null;

/** A TCP server on the outside address (when this machine has one) that records every byte it gets. */
async function outsideServer(): Promise<{
  address: string;
  port: number;
  connections: () => number;
  data: () => string;
}> {
  if (!OUTSIDE) return { address: '192.0.2.1', port: 9, connections: () => 0, data: () => '' };
  let connections = 0;
  let data = '';
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((s) => {
    connections++;
    sockets.add(s);
    // What arrives is kept, and the connection ended: a client waits for nothing.
    s.on('data', (d) => {
      data += d.toString('latin1');
      s.end();
    });
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, OUTSIDE, r));
  const port = (server.address() as import('node:net').AddressInfo).port;
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return { address: OUTSIDE, port, connections: () => connections, data: () => data };
}

/** A resolver answering from a table (what a hosts file would say), counting its calls. */
function resolver(table: Record<string, readonly string[]>) {
  const calls: string[] = [];
  const lookup: Resolver = async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, calls };
}

async function failure(p: Promise<unknown>): Promise<LinedeskError> {
  try {
    await p;
  } catch (e) {
    return e as LinedeskError;
  }
  throw new Error('expected a failure');
}

function client(baseUrl: string, lookup: Resolver, apiKey = KEY) {
  const c = createClient({
    baseUrl,
    apiKey,
    lookup,
    connectTimeoutMs: 500,
    retry: { maxAttempts: 2 },
    random: () => 0,
  });
  cleanups.push(() => c.close());
  return c;
}

const everything = (e: Error) =>
  `${e.message}\n${e.stack}\n${inspect(e, { depth: 5 })}\n${JSON.stringify(e)}`;

describe('plain http to a name', () => {
  it('a name that resolves off this machine is refused before connecting: nothing sent, the reason named, never the key', async () => {
    const outside = await outsideServer();
    const { lookup } = resolver({ 'shop.localhost': [outside.address] });
    const c = client(`http://shop.localhost:${outside.port}`, lookup);
    for (const call of [
      () => c.me(),
      () => c.extendLine({ id: '3f2b8c1e-9a4d-4f7e-8b21-5c6d7e8f9a01', duration: 1 }),
    ]) {
      const e = await failure(call());
      expect(e).toBeInstanceOf(ConfigError);
      expect(e.outcome).toBe('not_sent');
      expect(e.message).toContain('shop.localhost');
      expect(e.message).toContain(outside.address);
      expect(e.message).toMatch(/nothing was sent/i);
      expect(everything(e)).not.toContain(KEY);
    }
    expect(outside.connections()).toBe(0);
    expect(outside.data()).not.toContain(KEY);
  });

  it('an answer with several addresses is refused when any one is not loopback, in either order', async () => {
    const server = await scriptedServer((_q, res) => json(res, 200, { channels: [], movies: [] }));
    cleanups.push(server.close);
    const port = new URL(server.baseUrl).port;
    for (const addresses of [
      ['127.0.0.1', '192.0.2.7'],
      ['192.0.2.7', '127.0.0.1'],
      ['::1', '2001:db8::7'],
    ]) {
      const { lookup } = resolver({ 'shop.localhost': addresses });
      const e = await failure(client(`http://shop.localhost:${port}`, lookup).bouquets());
      expect(e).toBeInstanceOf(ConfigError);
      expect(e.outcome).toBe('not_sent');
      expect(e.message).toContain(addresses.find((a) => a !== '127.0.0.1' && a !== '::1'));
    }
    expect(server.connections()).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('a name that resolves to loopback (127.0.0.0/8, ::ffff:127.x) reaches a real sandbox', async () => {
    const { sb } = await sandbox({ lines: 3 });
    const port = new URL(sb.baseUrl).port;
    for (const address of ['127.0.0.1', '::ffff:127.0.0.1']) {
      const { lookup, calls } = resolver({ 'shop.localhost': [address] });
      const account = await client(`http://shop.localhost:${port}`, lookup, DEMO_KEY).me();
      expect(account.email).toBe('demo@sandbox.linedesk');
      expect(calls).toEqual(['shop.localhost']);
    }
  });

  it('localhost is judged by what it resolves to: the system resolver (loopback) works; a hosts file sending it elsewhere is refused', async () => {
    const { sb } = await sandbox({ lines: 3 });
    const port = new URL(sb.baseUrl).port;
    const plain = createClient({
      baseUrl: `http://localhost:${port}`,
      apiKey: DEMO_KEY,
      retry: { maxAttempts: 1 },
    });
    cleanups.push(() => plain.close());
    expect((await plain.me()).email).toBe('demo@sandbox.linedesk');

    const outside = await outsideServer();
    const { lookup } = resolver({ localhost: [outside.address] });
    const e = await failure(client(`http://localhost:${outside.port}`, lookup).me());
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toContain(outside.address);
    expect(outside.connections()).toBe(0);
  });

  it('a kept-alive connection is reused without a lookup; a new one is looked up again and refused if the name moved', async () => {
    const server = await scriptedServer((_q, res, n) =>
      json(res, 200, { channels: [], movies: [] }, n === 2 ? { connection: 'close' } : {}),
    );
    cleanups.push(server.close);
    const port = new URL(server.baseUrl).port;
    const table: Record<string, string[]> = { 'shop.localhost': ['127.0.0.1'] };
    const { lookup, calls } = resolver(table);
    const c = client(`http://shop.localhost:${port}`, lookup);
    await c.bouquets();
    table['shop.localhost'] = ['192.0.2.7']; // the name moves while a connection to loopback is open
    await c.bouquets(); // the open connection (to 127.0.0.1) is reused; the server closes it after
    expect(calls).toHaveLength(1);
    expect(server.connections()).toBe(1);
    const e = await failure(c.bouquets());
    expect(e).toBeInstanceOf(ConfigError);
    expect(calls).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    expect(server.connections()).toBe(1);
  });
});

describe('plain http to an address', () => {
  it('an IP literal is judged as itself, without a lookup, even below the base URL check', async () => {
    const outside = await outsideServer();
    const { lookup, calls } = resolver({});
    const http = new NodeHttp({ connectTimeoutMs: 500, lookup });
    cleanups.push(() => http.close());
    const e = await failure(
      http.request({
        url: new URL(`http://${outside.address}:${outside.port}/v1/me`),
        method: 'GET',
        headers: { 'x-api-key': KEY },
        signal: AbortSignal.timeout(5_000),
        maxBytes: 1024,
      }),
    );
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.outcome).toBe('not_sent');
    expect(e.message).toContain(outside.address);
    expect(calls).toEqual([]);
    expect(outside.connections()).toBe(0);
  });

  it('[::1] is loopback', async () => {
    const server = createServer((s) => {
      s.once('data', () =>
        s.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 27\r\n\r\n{"channels":[],"movies":[]}',
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, '::1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.address() as import('node:net').AddressInfo).port;
    const { lookup } = resolver({ 'v6.localhost': ['::1'] });
    expect(await client(`http://[::1]:${port}`, lookup).bouquets()).toMatchObject({ channels: [] });
    expect(await client(`http://v6.localhost:${port}`, lookup).bouquets()).toMatchObject({ channels: [] });
  });
});

describe('https', () => {
  it('is not affected: a name that resolves anywhere is connected to', async () => {
    const outside = await outsideServer();
    const { lookup, calls } = resolver({ 'panel.example.com': [outside.address] });
    const e = await failure(client(`https://panel.example.com:${outside.port}`, lookup).me());
    // The server speaks no TLS: the handshake fails, after a connection the lookup allowed.
    expect(e).not.toBeInstanceOf(ConfigError);
    expect(calls).toContain('panel.example.com');
    if (OUTSIDE) expect(outside.connections()).toBeGreaterThan(0);
  });
});

describe('the lookup Node calls', () => {
  const { lookup } = resolver({
    'shop.localhost': ['127.0.0.1', '::1'],
    'mixed.localhost': ['127.0.0.1', '192.0.2.7'],
  });
  const call = (host: string, all: boolean) =>
    new Promise<unknown[]>((resolve) =>
      checkedLookup(lookup, true)(host, { all }, (...args: unknown[]) => resolve(args)),
    );

  it('answers in both shapes: every address with `all` (autoSelectFamily), else the first', async () => {
    expect(await call('shop.localhost', true)).toEqual([
      null,
      [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    ]);
    expect(await call('shop.localhost', false)).toEqual([null, '127.0.0.1', 4]);
  });

  it('refuses in both shapes when one address is not loopback, and passes a resolver failure on', async () => {
    for (const all of [true, false]) {
      const [err] = await call('mixed.localhost', all);
      expect(err).toBeInstanceOf(ConfigError);
      const [notFound] = await call('nowhere.localhost', all);
      expect(notFound).toMatchObject({ code: 'ENOTFOUND' });
    }
  });
});

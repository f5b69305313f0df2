import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type Script = (req: Recorded, res: ServerResponse, n: number) => void | Promise<void>;

/** A real HTTP server on loopback whose answers a test scripts; records every request it receives. */
export async function scriptedServer(script: Script) {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rec = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    requests.push(rec);
    await script(rec, res, requests.length);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    connections++;
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    /** TCP connections accepted so far. */
    connections: () => connections,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A server with only the list of lines: every list reply is one page of the items `listed` gives for
 * its search (null: none); any other path is answered 404 line_not_found.
 */
export function listOnlyServer(listed: (search: string | null) => readonly unknown[]) {
  return scriptedServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname !== '/v1/lines/all') return json(res, 404, { code: 'line_not_found', message: 'no' });
    const lines = listed(u.searchParams.get('search'));
    json(res, 200, {
      offset: 0,
      limit: 100,
      totalHits: lines.length,
      totalReturns: lines.length,
      hasNextPage: false,
      hasPreviousPage: false,
      nextOffset: null,
      previousOffset: null,
      lines,
    });
  });
}

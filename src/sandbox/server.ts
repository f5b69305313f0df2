import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Faults } from './faults';
import { bodyText } from './line-json';
import type { RateLimiter } from './rate-limit';
import type { AccountRow, Repo } from './repo';
import { Refusal, type Service } from './service';

export const MAX_BODY_BYTES = 64 * 1024;

interface Ctx {
  readonly acct: AccountRow;
  readonly query: Record<string, string>;
  readonly body: unknown;
}
interface Route {
  readonly mutation: boolean;
  readonly handle: (s: Service, c: Ctx) => unknown;
}

/** Paths and methods of the interface document; `mutation` marks what may change state. */
const ROUTES: Record<string, Record<string, Route>> = {
  '/v1/me': { GET: { mutation: false, handle: (s, c) => s.me(c.acct) } },
  '/v1/packages': { GET: { mutation: false, handle: (s, c) => s.packages(c.query) } },
  '/v1/bouquets': { GET: { mutation: false, handle: (s) => s.bouquets() } },
  '/v1/lines/all': { GET: { mutation: false, handle: (s, c) => s.list(c.acct, c.query) } },
  '/v1/lines': {
    POST: { mutation: true, handle: (s, c) => s.create(c.acct, c.body, false) },
    DELETE: { mutation: true, handle: (s, c) => s.delete(c.acct, c.body) },
  },
  '/v1/lines/trial': { POST: { mutation: true, handle: (s, c) => s.create(c.acct, c.body, true) } },
  '/v1/lines/simulate': {
    POST: { mutation: false, handle: (s, c) => s.simulateCreate(c.body, false) },
  },
  '/v1/lines/simulate/trial': {
    POST: { mutation: false, handle: (s, c) => s.simulateCreate(c.body, true) },
  },
  '/v1/lines/extend': { PUT: { mutation: true, handle: (s, c) => s.extend(c.acct, c.body) } },
  '/v1/lines/upgrade': { PUT: { mutation: true, handle: (s, c) => s.upgrade(c.acct, c.body) } },
  '/v1/lines/simulate/upgrade': {
    PUT: { mutation: false, handle: (s, c) => s.simulateUpgrade(c.acct, c.body) },
  },
  '/v1/lines/unsuspend': { PUT: { mutation: true, handle: (s, c) => s.unsuspend(c.acct, c.body) } },
};

interface ServerDeps {
  readonly service: Service;
  readonly repo: Repo;
  readonly limiter: RateLimiter;
  readonly faults: Faults;
  readonly log: (line: string) => void;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = bodyText(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const badRequest = (message: string) =>
  new Refusal(400, {
    code: 'request_errors',
    message,
    data: { errors: [{ code: 'invalid_body', message, path: [] }] },
  });

async function readJson(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES)
    throw new Refusal(413, { code: 'request_errors', message: 'Body too large', data: { errors: [] } });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new Refusal(413, { code: 'request_errors', message: 'Body too large', data: { errors: [] } });
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type)) throw badRequest('Content-Type must be application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('Body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('Body must be a JSON object');
  return parsed;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createSandboxServer(deps: ServerDeps): Server {
  // Loaded here, not imported: a bundle hoists a static import to its top, and the app (which does
  // not serve) would load Node's HTTP server at every start.
  const { createServer } = process.getBuiltinModule('node:http');
  const server = createServer((req, res) => {
    handle(deps, req, res).catch((err) => {
      deps.log(`sandbox: unexpected failure: ${(err as Error).message}`);
      if (!res.headersSent)
        send(res, 500, { code: 'server_error', message: 'Internal error', requestId: 'none' });
    });
  });
  // Explicit timeouts: a slow or idle client cannot hold a socket forever.
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse) {
  const requestId = randomUUID().slice(0, 8);
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const methods = ROUTES[url.pathname.replace(/\/+$/, '') || '/'];
  if (!methods) return send(res, 404, { code: 'not_found', message: `No route ${url.pathname}` });
  const route = methods[req.method ?? ''];
  if (!route) {
    return send(
      res,
      405,
      { code: 'method_not_allowed', message: `${req.method} not allowed` },
      { allow: Object.keys(methods).join(', ') },
    );
  }
  const key = req.headers['x-api-key'];
  const acct = typeof key === 'string' && key ? deps.repo.accountForKey(key) : undefined;
  if (!acct || typeof key !== 'string')
    return send(res, 401, { code: 'not_authorized', message: 'Missing or invalid API key' });

  const rl = deps.limiter.take(key);
  const rlHeaders: Record<string, string> =
    deps.limiter.limit > 0
      ? { 'ratelimit-limit': String(deps.limiter.limit * 2), 'ratelimit-remaining': String(rl.remaining) }
      : {};
  if (!rl.ok) {
    const secs = Math.max(1, Math.ceil(rl.retryAfterMs / 1000));
    return send(
      res,
      429,
      { code: 'rate_limit', message: 'Too many requests' },
      { ...rlHeaders, 'retry-after': String(secs), 'ratelimit-reset': String(secs) },
    );
  }

  try {
    const body = req.method === 'GET' ? {} : await readJson(req);
    const fate = deps.faults.draw(route.mutation);
    if (fate.latencyMs > 0) await sleep(fate.latencyMs);
    if (fate.before === 'reset') return req.socket.destroy();
    if (fate.before === 'error500')
      return send(res, 500, { code: 'server_error', message: 'Injected failure', requestId }, rlHeaders);
    if (fate.before === 'error429')
      return send(res, 429, { code: 'rate_limit', message: 'Too many requests' }, { 'retry-after': '1' });

    const query = Object.fromEntries(url.searchParams);
    const result = route.handle(deps.service, { acct, query, body });
    if (fate.after === 'reset') return req.socket.destroy();
    if (fate.after === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(bodyText(result).slice(0, 20));
    }
    send(res, 200, result, rlHeaders);
  } catch (err) {
    if (err instanceof Refusal) {
      if (err.status === 413) res.setHeader('connection', 'close');
      return send(res, err.status, err.body, rlHeaders);
    }
    deps.log(
      `sandbox: request ${requestId} ${req.method} ${url.pathname} failed: ${(err as Error).stack ?? err}`,
    );
    send(res, 500, { code: 'server_error', message: 'Internal error', requestId }, rlHeaders);
  }
}

/**
 * A fault-and-dialect proxy on loopback, in front of the sandbox: it makes our own sandbox look like
 * the servers and networks the app meets for real. Point a real client at `baseUrl`.
 *
 * Dialects (every 2xx JSON reply is rewritten):
 *  - `dates`: 'iso' (as is), 'toString' (JavaScript's Date.toString at GMT+0100), 'long'
 *    ("Wednesday, June 2, 2027 9:46:43 AM", UTC);
 *  - `strings`: numbers and booleans as strings ("3", "true");
 *  - `searchIgnoresIds`: a list search that looks like an id finds nothing (usernames only);
 *  - `searchLag`: a search index that lags: the first K searches that find a line show it as the
 *    proxy first listed it (before any change since), later ones as it is.
 * Faults, by rule (`match` is "METHOD /path", `nth` the 1-based count of that route, or `p` a
 * probability drawn from the seeded PRNG): resetBefore (connection dropped, nothing forwarded),
 * replyLost (forwarded and applied, then the connection dropped), error5xx (answered without
 * forwarding), error5xxAfter (forwarded, then a 502), rateLimit (429 with the given headers),
 * badItem (a list reply gets an unreadable line), stuckOffset (nextOffset = offset), repeatIds (a list
 * reply repeats its first line), slow (a delay first); applyLate: the change reaches the service after
 * the client gave up — `hold` (no answer at all: the client's deadline passes, the upstream applies it
 * `ms` later), `gateway` (a proxy's HTML 504 at once, the upstream applies it `ms` later), `seeOther`
 * (applied, answered with a 303 to another path). `landed()` resolves once every late change has landed.
 * `onList(nth)` runs before the nth list request (1-based) is answered: a test changes the sandbox
 * there (deletes or creates a line) to play a list that changes between two pages of a walk.
 * `forwarded` counts what reached the sandbox, per route; `received` what reached the proxy (answered
 * by it or not) since the last `set`.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { createClient } from '../../src/api/client';
import { prng } from '../../src/sandbox/prng';
import { DEMO_KEY } from './sandbox';
import { cleanups } from './wait';

export type Fault =
  | { readonly kind: 'resetBefore' | 'replyLost' | 'error5xxAfter' | 'badItem' | 'stuckOffset' | 'repeatIds' }
  | { readonly kind: 'error5xx'; readonly status?: number }
  | { readonly kind: 'rateLimit'; readonly headers?: Record<string, string> }
  | { readonly kind: 'slow'; readonly ms: number }
  | { readonly kind: 'applyLate'; readonly ms: number; readonly answer: 'hold' | 'gateway' | 'seeOther' };

export interface FaultRule {
  readonly match: string;
  readonly nth?: number;
  readonly p?: number;
  readonly fault: Fault;
}

export interface Dialect {
  readonly dates?: 'iso' | 'toString' | 'long';
  readonly strings?: boolean;
  readonly searchIgnoresIds?: boolean;
  readonly searchLag?: number;
}

export interface ProxyConfig {
  readonly dialect?: Dialect;
  readonly rules?: readonly FaultRule[];
  readonly seed?: number;
  /** Called as a fault is applied (after forwarding, for the faults that forward): a test may close the proxy then. */
  readonly onFault?: (route: string, fault: Fault) => void;
  /** Before the nth list request (GET /v1/lines/all, 1-based, counted since the last `set`) is
   *  forwarded, with its query: the sandbox may be changed here, between two pages. */
  readonly onList?: (nth: number, query: URLSearchParams) => void | Promise<void>;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const two = (n: number) => String(n).padStart(2, '0');

/** "Tue Dec 03 2024 18:44:34 GMT+0100 (GMT+01:00)" */
export function toStringForm(ms: number, offsetMin = 60): string {
  const d = new Date(ms + offsetMin * 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const off = `${two(Math.floor(abs / 60))}${two(abs % 60)}`;
  return `${DAYS[d.getUTCDay()]!.slice(0, 3)} ${MONTHS[d.getUTCMonth()]!.slice(0, 3)} ${two(d.getUTCDate())} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} GMT${sign}${off} (GMT${sign}${off.slice(0, 2)}:${off.slice(2)})`;
}

/** "Wednesday, June 2, 2027 9:46:43 AM" (UTC) */
export function longForm(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  return `${DAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${h % 12 || 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

const DATE_KEYS = new Set(['exp_date', 'start_date', 'created_at']);

function rewrite(v: unknown, d: Dialect, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => rewrite(x, d));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rewrite(x, d, k)]));
  if (typeof v === 'string' && DATE_KEYS.has(key) && d.dates && d.dates !== 'iso') {
    const ms = Date.parse(v);
    return Number.isFinite(ms) ? (d.dates === 'long' ? longForm(ms) : toStringForm(ms)) : v;
  }
  if (d.strings && (typeof v === 'number' || typeof v === 'boolean')) return String(v);
  return v;
}

export async function faultProxy(target: string, initial: ProxyConfig = {}) {
  let config = initial;
  let random = prng(config.seed ?? 1);
  const counts = new Map<string, number>();
  const forwarded = new Map<string, number>();
  const lagged = new Map<string, { line: Record<string, unknown>; served: number }>();
  const sockets = new Set<Socket>();
  const late = new Set<Promise<unknown>>();
  // Late changes also wait for this gate: a test holds them until it has seen "no change yet".
  let gate: Promise<void> = Promise.resolve();
  let openGate: () => void = () => {};

  const pick = (route: string): Fault | null => {
    const n = counts.get(route)!;
    for (const r of config.rules ?? []) {
      if (r.match !== route && r.match !== '*') continue;
      if (r.nth !== undefined ? r.nth === n : r.p !== undefined ? random() < r.p : true) return r.fault;
    }
    return null;
  };

  // A reset or a malformed body upstream (the sandbox's own faults) is passed on as it came: the
  // client sees the reset, or the bytes, exactly as it would without the proxy.
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://proxy');
    const route = `${req.method} ${url.pathname}`;
    counts.set(route, (counts.get(route) ?? 0) + 1);
    if (route === 'GET /v1/lines/all') await config.onList?.(counts.get(route)!, url.searchParams);
    const fault = pick(route);
    const d = config.dialect ?? {};
    if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === 'resetBefore') return req.socket.destroy();
    if (fault?.kind === 'error5xx') {
      res.writeHead(fault.status ?? 500, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ code: 'server_error', message: 'Injected by the proxy', requestId: 'proxy' }),
      );
    }
    if (fault?.kind === 'rateLimit') {
      res.writeHead(429, { 'content-type': 'application/json', ...fault.headers });
      return res.end(JSON.stringify({ code: 'rate_limit', message: 'Too many requests' }));
    }
    const isList = route === 'GET /v1/lines/all';
    const search = url.searchParams.get('search') ?? '';
    if (isList && d.searchIgnoresIds && /^[0-9a-f]{8}-[0-9a-f-]{27,}$/i.test(search)) {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify(
          rewrite(
            {
              offset,
              limit,
              totalHits: 0,
              totalReturns: 0,
              hasNextPage: false,
              hasPreviousPage: offset > 0,
              nextOffset: null,
              previousOffset: null,
              lines: [],
            },
            d,
          ),
        ),
      );
    }
    const headers: Record<string, string> = {};
    for (const h of ['x-api-key', 'content-type', 'accept', 'user-agent'])
      if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
    if (fault?.kind === 'applyLate' && fault.answer !== 'seeOther') {
      // The client is answered (a gateway page) or left waiting; the upstream gets it later.
      if (fault.answer === 'gateway') {
        res.writeHead(504, { 'content-type': 'text/html' });
        res.end('<html><head><title>504 Gateway Time-out</title></head><body>nginx</body></html>');
      }
      const landed = new Promise((r) => setTimeout(r, fault.ms))
        .then(() => gate)
        .then(() =>
          request(`${target}${url.pathname}${url.search}`, {
            method: req.method as 'GET',
            headers,
            ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
          }),
        )
        .then((up) => up.body.text())
        .then(() => {
          forwarded.set(route, (forwarded.get(route) ?? 0) + 1);
          config.onFault?.(route, fault);
          if (fault.answer === 'hold') req.socket.destroy();
        })
        .catch(() => {})
        .finally(() => late.delete(landed));
      late.add(landed);
      return;
    }
    const up = await request(`${target}${url.pathname}${url.search}`, {
      method: req.method as 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    let text = await up.body.text();
    forwarded.set(route, (forwarded.get(route) ?? 0) + 1);
    if (fault) config.onFault?.(route, fault);
    if (fault?.kind === 'replyLost') return req.socket.destroy();
    if (fault?.kind === 'applyLate') {
      res.writeHead(303, { location: '/v1/lines/all', 'content-type': 'text/plain' });
      return res.end('See Other');
    }
    if (fault?.kind === 'error5xxAfter') {
      res.writeHead(502, { 'content-type': 'text/plain' });
      return res.end('Bad gateway');
    }
    if (up.statusCode >= 200 && up.statusCode < 300) {
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        res.writeHead(up.statusCode, { 'content-type': 'application/json' });
        return res.end(text);
      }
      if (isList && Array.isArray(json.lines)) {
        const lines = json.lines as Array<Record<string, unknown>>;
        if (fault?.kind === 'badItem')
          lines.splice(Math.min(1, lines.length), 0, {
            ...(lines[0] ?? {}),
            id: undefined,
            connections: 'x',
          });
        if (fault?.kind === 'repeatIds' && lines.length) lines.push(lines[0]!);
        if (fault?.kind === 'stuckOffset') json = { ...json, nextOffset: json.offset, hasNextPage: true };
      }
      if (isList && d.searchLag && Array.isArray(json.lines)) {
        const lines = json.lines as Array<Record<string, unknown>>;
        for (const [i, l] of lines.entries()) {
          const id = String(l.id);
          const seen = lagged.get(id);
          if (!seen) lagged.set(id, { line: l, served: 0 });
          else if (search && seen.served < d.searchLag) {
            seen.served++;
            lines[i] = seen.line;
          } else lagged.set(id, { line: l, served: d.searchLag });
        }
      }
      text = JSON.stringify(rewrite(json, d));
    }
    res.writeHead(up.statusCode, { 'content-type': 'application/json' });
    res.end(text);
  };
  let accepted = 0;
  server.on('connection', (s) => {
    accepted++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    forwarded,
    received: counts as ReadonlyMap<string, number>,
    /** Late changes wait (after their delay) until `release()`: a test decides when they land. */
    hold() {
      gate = new Promise<void>((r) => {
        openGate = r;
      });
    },
    release() {
      openGate();
    },
    /** Resolves once every change held back by `applyLate` has reached the service. */
    async landed() {
      openGate();
      while (late.size) await Promise.all([...late]);
    },
    /** Replaces the dialect and rules; counts restart. */
    set(next: ProxyConfig) {
      config = next;
      random = prng(next.seed ?? 1);
      counts.clear();
      lagged.clear();
    },
    /** Connections the proxy accepted so far (a client's pooled or waiting ones included). */
    connections: () => accepted,
    /** Every open connection closed under its client (a restart, an idle close); still listening. */
    drop() {
      for (const s of sockets) s.destroy();
    },
    /** The service goes away: connections are refused (ECONNREFUSED) until `up()`. */
    async down() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
    /** Back on the same port. */
    async up() {
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    async close() {
      for (const s of sockets) s.destroy();
      if (server.listening) await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A client (one attempt, no retries) through a fault proxy in front of `target`; both closed after the test. */
export async function proxiedClient(target: string, config: ProxyConfig = {}) {
  const proxy = await faultProxy(target, config);
  const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(async () => {
    await client.close();
    await proxy.close();
  });
  return { proxy, client };
}

/** The extend's reply is lost; the lookup and the balance reads before it get through, every read after fails. */
export const lostReplyThenReadsFail = (baseUrl: string) => {
  const pass = { kind: 'slow', ms: 0 } as const;
  return faultProxy(baseUrl, {
    rules: [
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } },
      { match: 'GET /v1/lines/all', nth: 1, fault: pass },
      { match: 'GET /v1/lines/all', fault: { kind: 'error5xx' } },
      { match: 'GET /v1/me', nth: 1, fault: pass },
      { match: 'GET /v1/me', nth: 2, fault: pass },
      { match: 'GET /v1/me', fault: { kind: 'error5xx' } },
    ],
  });
};

import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackAddress } from './base-url';
import { ConfigError, ProtocolError } from './errors';
import { jsonStringsPrintable } from './sanitize';

/**
 * The one HTTP exchange the transport needs, on Node's own `http`/`https` with keep-alive agents.
 * Not undici: loading undici (with its HTTP/2, TLS, zlib and worker modules) cost ≈ 40 ms of every
 * start, before the first request could leave; `node:http` costs ≈ 10, and TLS is loaded only for
 * an https service. Idle sockets close before the server's announced keep-alive timeout (Node's
 * agent reads its `Keep-Alive: timeout=N` hint), so a request rarely meets a socket the server is
 * closing; when it does, the failure is an unknown outcome, as any other lost reply (http.ts). After
 * a failed connection the idle pooled sockets are closed (`dropIdle`): an outage closes them all,
 * and the next request, sent at once, would otherwise go out on one already closed under it.
 */
export interface HttpReply {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** Every string of the body, read as JSON, is printable ASCII (`jsonStringsPrintable`). */
  readonly printable: boolean;
}

export interface HttpRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** A larger body is refused (ProtocolError) and its socket closed. */
  readonly maxBytes: number;
  /**
   * Called once the whole reply is in hand, with its status, before its body is read or the promise
   * settles: a caller that asks for the next page then has it leave before this one is parsed.
   */
  readonly onComplete?: (statusCode: number) => void;
  /**
   * The request is made at once (its socket taken, its handlers set) but leaves only once this
   * fulfils; when it rejects, it ends unsent (`NOT_ASKED`). Nothing is written before: a request
   * made ready while the one before it is answered.
   */
  readonly after?: Promise<unknown>;
}

/** The code of a request whose `after` rejected: it never left. */
export const NOT_ASKED = 'ENOT_ASKED';

/** The code of an error or of one of its causes (an abort's own codes are no code: null). */
export function errorCode(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED' && code !== 'ABORT_ERR') return code;
  }
  return null;
}

/** Raised when the TCP (and TLS) connection is not made in time: the request never left. */
export const CONNECT_TIMEOUT = 'ECONNECT_TIMEOUT';

/** Every address a name has (dns.lookup with `all: true`); tests inject a table instead. */
export type Resolver = (
  hostname: string,
  options: Omit<LookupOptions, 'all'>,
) => Promise<readonly LookupAddress[]>;

const systemResolver: Resolver = (hostname, options) =>
  process.getBuiltinModule('node:dns').promises.lookup(hostname, { ...options, all: true });

/**
 * The `lookup` Node's `net` calls for a new connection, before any socket connects (a pooled socket
 * was made through it too). For plain http a name is trusted for what it resolves to now: when any
 * address is not loopback, the connection is refused, so the key in the headers never leaves (a
 * hosts file or a resolver may send `shop.localhost`, even `localhost`, elsewhere). Node asks for
 * every address (`all`, when it races the families) or for one; every address is checked either way.
 */
export function checkedLookup(resolve: Resolver, plainHttp: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const { all, ...rest } = options;
    resolve(hostname, rest).then(
      (addresses) => {
        const outside = addresses.filter((a) => !isLoopbackAddress(a.address));
        if (plainHttp && outside.length) return callback(plainHttpRefusal(hostname, outside), '');
        const first = addresses[0];
        if (!first)
          return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        if (all) return callback(null, [...addresses]);
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

/** Names the host and where it leads; never the key. Nothing was sent: the socket never connected. */
function plainHttpRefusal(host: string, outside: readonly LookupAddress[]): ConfigError {
  const shown = outside.slice(0, 3).map((a) => a.address);
  const where =
    isIP(host.replace(/^\[|\]$/g, '')) !== 0
      ? 'not a loopback address'
      : `it resolves to ${shown.join(', ')}${outside.length > shown.length ? '…' : ''}, not only to this machine`;
  return new ConfigError(
    `Refused plain http to ${host}: ${where}, and the API key would cross the network unencrypted. Nothing was sent. Use https, or a name that resolves only to loopback (127.0.0.0/8, ::1).`,
  );
}

export class NodeHttp {
  readonly #connectTimeoutMs: number;
  readonly #resolve: Resolver;
  readonly #agents = new Map<string, Agent>();
  /** Hosts written as a loopback IP literal, judged already (plain http). */
  readonly #loopbackLiterals = new Set<string>();

  constructor(opts: { readonly connectTimeoutMs: number; readonly lookup?: Resolver | undefined }) {
    this.#connectTimeoutMs = opts.connectTimeoutMs;
    this.#resolve = opts.lookup ?? systemResolver;
  }

  #agent(protocol: string): { agent: Agent; request: typeof import('node:http').request } {
    const mod =
      protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
    let agent = this.#agents.get(protocol);
    if (!agent) {
      agent = new mod.Agent({ keepAlive: true, maxSockets: 16, timeout: 10_000 });
      this.#agents.set(protocol, agent);
    }
    return { agent, request: mod.request as typeof import('node:http').request };
  }

  request(r: HttpRequest): Promise<HttpReply> {
    const { agent, request } = this.#agent(r.url.protocol);
    const plainHttp = r.url.protocol === 'http:';
    // `net` connects to an IP literal without a lookup: it is judged here, as itself (once a host:
    // the loopback check is a BlockList lookup, ≈ 13 µs of every request of a listing's 1,000).
    if (plainHttp && !this.#loopbackLiterals.has(r.url.hostname)) {
      const literal = r.url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) !== 0 && !isLoopbackAddress(literal))
        return Promise.reject(
          plainHttpRefusal(r.url.hostname, [{ address: literal, family: isIP(literal) }]),
        );
      if (isIP(literal) !== 0) this.#loopbackLiterals.add(r.url.hostname);
    }
    return new Promise<HttpReply>((resolve, reject) => {
      if (r.signal.aborted) return reject(abortError(r.signal));
      let req: ClientRequest | undefined;
      let connectTimer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      // Once a connection is up (a pooled one, or a new one past its handshake) the request may have
      // left: an error code that usually means "never connected" proves nothing after that point.
      let connected = false;
      // Nothing is written before `end` (a request waiting for `after` has sent nothing, connected or not).
      let ended = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        Object.assign(err, { mayHaveLeft: connected && ended });
        // The connection failed (not our abort, not a reply we refused): the service may have closed
        // every connection (an outage, a restart). The idle pooled ones go too, before the caller's
        // next request could take one already closed under it: on a socket that was up, a failure
        // cannot prove the request never left, so it would be "unknown"; on a new connection, a
        // refused one proves "not sent".
        if (!(err instanceof ProtocolError) && err.name !== 'AbortError' && errorCode(err) !== NOT_ASKED)
          dropIdle(agent);
        clearTimeout(connectTimer);
        r.signal.removeEventListener('abort', onAbort);
        req?.destroy();
        reject(err);
      };
      const onAbort = () => fail(abortError(r.signal));
      r.signal.addEventListener('abort', onAbort, { once: true });
      req = request(r.url, {
        method: r.method,
        headers: {
          ...r.headers,
          ...(r.body !== undefined ? { 'content-length': String(Buffer.byteLength(r.body)) } : {}),
        },
        agent,
        lookup: checkedLookup(this.#resolve, plainHttp),
      });
      req.on('socket', (socket) => {
        // A pooled socket is connected already; a new one gets the connect deadline.
        if (!socket.connecting) {
          connected = true;
          return;
        }
        connectTimer = setTimeout(() => {
          const err = Object.assign(new Error(`connect timeout (${this.#connectTimeoutMs} ms)`), {
            code: CONNECT_TIMEOUT,
          });
          fail(err);
        }, this.#connectTimeoutMs);
        socket.once(r.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
          connected = true;
          clearTimeout(connectTimer);
        });
      });
      req.on('error', fail);
      // Some answers (101 Switching Protocols) close the request with neither a response nor an
      // error: without this the promise would wait for the deadline. After a settle it does nothing,
      // and makes no Error (its stack trace was ≈ 20 µs of every request that ended well).
      req.on('close', () => {
        if (!settled)
          fail(
            Object.assign(new Error('connection closed before the response ended'), { code: 'ECONNRESET' }),
          );
      });
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > r.maxBytes) {
            fail(new ProtocolError(`Response body exceeds ${r.maxBytes} bytes`, null));
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('response aborted'), { code: 'ECONNRESET' })));
        res.on('end', () => {
          if (!res.complete)
            return fail(Object.assign(new Error('response cut short'), { code: 'ECONNRESET' }));
          if (settled) return;
          settled = true;
          try {
            r.onComplete?.(res.statusCode ?? 0);
          } catch {
            // A hint to the caller (ask the next page now): a failure in it is the caller's own
            // (its next request fails on its own), never this request's.
          }
          clearTimeout(connectTimer);
          r.signal.removeEventListener('abort', onAbort);
          const body = Buffer.concat(chunks);
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            text: body.toString('utf8'),
            printable: jsonStringsPrintable(body),
          });
        });
      });
      const end = () => {
        if (settled) return;
        ended = true;
        req.end(r.body);
      };
      if (r.after)
        r.after.then(end, () =>
          fail(Object.assign(new Error('not asked: the walk no longer wanted it'), { code: NOT_ASKED })),
        );
      else end();
    });
  }

  async close(): Promise<void> {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}

/**
 * Closes the agent's idle keep-alive sockets (`freeSockets`; those carrying a request are left
 * alone). A closed socket is never handed out again: the agent skips destroyed ones at the head of
 * its free list, and removes each as it closes.
 */
function dropIdle(agent: Agent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

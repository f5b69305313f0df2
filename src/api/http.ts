import type { z } from 'zod';
import { ErrorBody, MessageOnlyBody } from './contract';
import { safeParseTiered } from './contract/tiered-parse';
import {
  AbortedError,
  type ApiError,
  Conflict,
  InsufficientBalance,
  LinedeskError,
  LineNotFound,
  NetworkError,
  NotAuthorized,
  ProtocolError,
  RateLimited,
  RequestErrors,
  ServerError,
  TimeoutError,
  UnexpectedStatus,
} from './errors';
import { CONNECT_TIMEOUT, errorCode, NOT_ASKED, NodeHttp, type Resolver } from './node-http';
import { backoffDelay, DEFAULT_RETRY, type RetryPolicy, rateLimitHint } from './retry';
import { sanitizeMultiline } from './sanitize';

/**
 * `read`: GET and the simulate endpoints (they persist nothing): retried on 429/502/503/504 and network
 * errors. `mutation`: never re-sent once it may have reached the server.
 */
export type RequestKind = 'read' | 'mutation';

export interface TransportOptions {
  readonly baseUrl: URL;
  readonly apiKey: string;
  readonly connectTimeoutMs?: number;
  /** Overall deadline of one attempt, headers and body included. */
  readonly deadlineMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  readonly random?: () => number;
  readonly userAgent?: string;
  /** One line per attempt, for the log file. Carries no header and no body. */
  readonly onEvent?: (event: TransportEvent) => void;
  /** Resolves names (dns.lookup by default); plain http is refused unless every address is loopback. */
  readonly lookup?: Resolver;
}

export interface TransportEvent {
  readonly method: string;
  readonly path: string;
  readonly attempt: number;
  readonly status: number | null;
  readonly ms: number;
  readonly error?: string;
}

export interface SendOptions {
  readonly kind: RequestKind;
  readonly query?: Record<string, string | number | undefined>;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /**
   * Called when a 2xx reply is in hand, before it is parsed: the server has read what it answers, so
   * a reader may ask for what follows while this one parses (the order of the server's reads kept).
   */
  readonly onAnswered?: () => void;
  /**
   * The request is made at once and leaves only once this fulfils (the transport's `after`); its
   * deadline runs from then. A rejected one ends it unsent: AbortedError('not_sent'), never retried.
   * Ended before then in any other way (its caller's abort, its connection closed) it is not sent
   * either: nothing was written.
   */
  readonly after?: Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
// A read changes nothing: a 500 is as safe to retry as a 502.
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Errors that prove the request never left: the connection itself was not made. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  CONNECT_TIMEOUT,
]);

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** Every string of the body is printable ASCII (the transport checked its bytes): none to sanitize. */
  readonly printable?: boolean;
}

export class Transport {
  readonly #opts: TransportOptions;
  readonly #policy: RetryPolicy;
  readonly #http: NodeHttp;
  readonly #random: () => number;
  /** Per path: the base URL with the path after its own (the query comes per request). */
  readonly #prefixes = new Map<string, string>();

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    this.#policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.#random = opts.random ?? Math.random;
    this.#http = new NodeHttp({ connectTimeoutMs: opts.connectTimeoutMs ?? 5_000, lookup: opts.lookup });
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  /** Sends one request (with retries as its kind allows) and parses a 2xx body with `schema`. */
  async send<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    opts: SendOptions,
  ): Promise<z.output<S>> {
    try {
      return await this.#send(method, path, schema, opts);
    } catch (err) {
      // A server may echo what it was sent: nothing leaves here with the key in it.
      throw this.#scrub(err);
    }
  }

  async #send<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    opts: SendOptions,
  ): Promise<z.output<S>> {
    const started = Date.now();
    // An attempt so far may have reached the server: an abort while waiting to try again is not "not sent".
    let left = false;
    for (let attempt = 1; ; attempt++) {
      let error: LinedeskError;
      let retryAfterMs: number | null = null;
      try {
        const reply = await this.#once(method, path, opts, attempt);
        if (reply.status >= 200 && reply.status < 300) {
          return parseBody(schema, reply, `${method} ${path}`);
        }
        const failure = classify(reply, this.#policy);
        if (!(opts.kind === 'read' && RETRY_STATUSES.has(reply.status))) throw failure;
        if (failure instanceof RateLimited) retryAfterMs = failure.retryAfterMs;
        error = failure;
      } catch (caught) {
        if (!(caught instanceof NetworkError || caught instanceof TimeoutError)) throw reached(caught, left);
        // A mutation is re-sent only when the connection itself failed: it cannot have been applied.
        if (opts.signal?.aborted || (opts.kind === 'mutation' && caught.outcome !== 'not_sent'))
          throw reached(caught, left);
        error = caught;
      }
      left ||= error.outcome !== 'not_sent';
      if (attempt >= this.#policy.maxAttempts) throw reached(error, left);
      // The server's hint is honoured, but never below the backoff (0 or a past date would hammer it).
      const delay = Math.max(retryAfterMs ?? 0, backoffDelay(this.#policy, attempt - 1, this.#random));
      if (Date.now() - started + delay > this.#policy.budgetMs) throw reached(error, left);
      await sleep(delay, opts.signal, left ? 'unknown' : 'not_sent');
    }
  }

  async #once(method: string, path: string, opts: SendOptions, attempt: number): Promise<Reply> {
    const url = this.#url(path, opts.query);
    const deadlineMs = this.#opts.deadlineMs ?? 15_000;
    // A timer cleared when the attempt ends, where AbortSignal.timeout left one pending for the
    // deadline's whole length after every request (a listing's 1,000 of them).
    const expiry = new AbortController();
    const deadline = expiry.signal;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let over = false;
    const arm = () => {
      if (over) return;
      timer = setTimeout(
        () => expiry.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
        deadlineMs,
      );
      timer.unref();
    };
    // A request made ahead: its deadline runs from when it may leave. A retry waits for it too (a
    // socket closed under the first attempt before its gate opened must not send it early).
    const after = opts.after;
    if (after) after.then(arm, () => {});
    else arm();
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
    const headers: Record<string, string> = {
      'x-api-key': this.#opts.apiKey,
      accept: 'application/json',
      'user-agent': this.#opts.userAgent ?? 'linedesk',
    };
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const t0 = Date.now();
    const report = (status: number | null, error?: string) =>
      this.#opts.onEvent?.({
        method,
        path,
        attempt,
        status,
        ms: Date.now() - t0,
        ...(error ? { error } : {}),
      });
    try {
      // The AbortSignal holds the deadline (headers and body alike).
      // `onAnswered` as the reply ends, before its body is read, logged or parsed: the next page's
      // request leaves then, and the server reads it while this process works on this one.
      const onAnswered = opts.onAnswered;
      const res = await this.#http.request({
        url,
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal,
        maxBytes: MAX_BODY_BYTES,
        ...(after ? { after } : {}),
        ...(onAnswered
          ? {
              onComplete: (status: number) => {
                if (status >= 200 && status < 300) onAnswered();
              },
            }
          : {}),
      });
      report(res.statusCode);
      return { status: res.statusCode, headers: res.headers, text: res.text, printable: res.printable };
    } catch (err) {
      const failure = this.#networkFailure(err, opts.signal, deadline);
      report(null, failure.message);
      throw failure;
    } finally {
      over = true;
      clearTimeout(timer);
    }
  }

  /**
   * The base URL (no query or fragment: base-url.ts) with `path` after its own, and the query's set
   * values. Built as one string and parsed once: setting each parameter on a URL re-serialized it
   * every time (issue 27: a listing makes 1,000 requests).
   */
  #url(path: string, query: SendOptions['query']): URL {
    let prefix = this.#prefixes.get(path);
    if (prefix === undefined) {
      const url = new URL(this.#opts.baseUrl.href);
      url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
      prefix = url.href;
      this.#prefixes.set(path, prefix);
    }
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {}))
      if (v !== undefined && v !== '') params.set(k, String(v));
    const search = params.toString();
    return new URL(search ? `${prefix}?${search}` : prefix);
  }

  #networkFailure(err: unknown, caller: AbortSignal | undefined, deadline: AbortSignal): LinedeskError {
    // Our own verdicts (a body over the cap) are final: never turned into a retryable network error.
    if (isLinedeskError(err)) return err;
    const code = errorCode(err);
    // Made ahead and never sent: the reader no longer wanted it. Not a failure to retry.
    if (code === NOT_ASKED) return new AbortedError('not_sent');
    // Only the transport's word that nothing was written on a connection makes it "not sent" (a
    // connection never made, or a request made ahead that ended before its gate opened, however it
    // ended: aborted, reset, timed out). The code alone is not proof: EHOSTUNREACH also ends
    // connections that were up, after the request left.
    const outcome = (err as { mayHaveLeft?: unknown }).mayHaveLeft === false ? 'not_sent' : 'unknown';
    if (outcome === 'not_sent' && code && NOT_SENT_CODES.has(code)) {
      return new NetworkError(`Could not connect to ${this.#opts.baseUrl.host} (${code})`, 'not_sent', code);
    }
    if (caller?.aborted) return new AbortedError(outcome);
    if (deadline.aborted) {
      return new TimeoutError(
        `No answer from ${this.#opts.baseUrl.host} within ${this.#opts.deadlineMs ?? 15_000} ms`,
        outcome,
      );
    }
    const detail = code ?? (err instanceof Error ? err.message : String(err));
    return new NetworkError(
      `Connection to ${this.#opts.baseUrl.host} failed (${sanitizeMultiline(detail)})`,
      outcome,
      code,
    );
  }

  /** Whatever is thrown leaves with the key blanked out, whatever produced it and in every field. */
  #scrub(err: unknown): LinedeskError {
    const e = isLinedeskError(err)
      ? err
      : new NetworkError(err instanceof Error ? err.message : String(err), 'unknown', null);
    const key = this.#opts.apiKey;
    if (key) redactDeep(e, key, 0);
    return e;
  }
}

function redactDeep(target: object, key: string, depth: number): void {
  const record = target as Record<string, unknown>;
  for (const prop of [...Object.getOwnPropertyNames(target), 'message', 'stack']) {
    // The outcome is one of a few words the code decides by, never the key: a short key inside
    // one of them ("unknown") must not turn it into another.
    if (prop === 'outcome') continue;
    const v = record[prop];
    if (typeof v === 'string' && v.includes(key)) {
      Object.defineProperty(target, prop, {
        value: v.split(key).join('[redacted]'),
        writable: true,
        configurable: true,
      });
    } else if (v && typeof v === 'object' && depth < 4) redactDeep(v, key, depth + 1);
  }
}

function isLinedeskError(err: unknown): err is LinedeskError {
  return err instanceof Error && 'outcome' in err;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseBody<S extends z.ZodType>(schema: S, reply: Reply, what: string): z.output<S> {
  const json = parseJson(reply.text);
  if (json === undefined) throw new ProtocolError(`${what}: the server's answer is not JSON`, null);
  const parsed = safeParseTiered(schema, json, reply.printable === true);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? issue.path.map(String).join('.') : '';
  throw new ProtocolError(
    `${what}: the server's answer does not match the contract at ${path || '(root)'}: ${issue?.message ?? 'invalid'}`,
    path || null,
  );
}

/** The body's `code` decides; the status is the fallback where the body says nothing. */
export function classify(reply: Reply, policy: RetryPolicy = DEFAULT_RETRY): ApiError {
  const { status } = reply;
  const json = parseJson(reply.text);
  const retryAfter = () => rateLimitHint(reply.headers, Date.now(), policy.maxRetryAfterMs);
  const body = ErrorBody.safeParse(json);
  if (body.success) {
    const b = body.data;
    switch (b.code) {
      case 'request_errors':
        return new RequestErrors(
          status,
          b.message,
          b.data.errors.map((e) => ({ path: e.path, message: e.message, code: e.code })),
        );
      case 'not_authorized':
        return new NotAuthorized(status, b.message);
      case 'rate_limit':
        return new RateLimited(status, b.message, retryAfter());
      case 'server_error':
        return new ServerError(status, b.message, b.requestId);
      case 'insufficient_balance':
        return new InsufficientBalance(status, b.message, b.balance, b.minBalance);
      case 'line_not_found':
        return new LineNotFound(status, b.message);
    }
  }
  // Nothing below is a documented refusal: a proxy's page, a redirect, a code the interface does not
  // list. Typed for the caller's words, but its outcome stays unknown (it may have been applied).
  const messageOnly = MessageOnlyBody.safeParse(json);
  const message = messageOnly.success ? messageOnly.data.message : `HTTP ${status}${describeStatus(reply)}`;
  if (status >= 500) return new ServerError(status, message, null);
  if (status === 429) return new RateLimited(status, message, retryAfter(), false);
  if (status === 401) return new NotAuthorized(status, message, false);
  // The message-only body (`{ message }`, no code) is documented: username taken, duration unavailable.
  if (messageOnly.success && !hasCode(json) && status >= 400) return new Conflict(status, message);
  if (status === 400) return new RequestErrors(status, message, [], false);
  return new UnexpectedStatus(status, `Unexpected answer: ${message}`, false);
}

/** A redirect's target or a page's content type, for the words (never the body of an HTML page). */
function describeStatus(reply: Reply): string {
  const location = reply.headers.location;
  if (reply.status >= 300 && reply.status < 400 && typeof location === 'string')
    return ` (a redirect to ${sanitizeMultiline(location).slice(0, 120)})`;
  const type = reply.headers['content-type'];
  return typeof type === 'string' && /html/i.test(type) ? ' (an HTML page, not the service)' : '';
}

function hasCode(json: unknown): boolean {
  return typeof json === 'object' && json !== null && 'code' in json;
}

/**
 * A request's last failure, when an attempt before it may have reached the server (`left`): never
 * "not sent", whatever the last attempt did (only reads are tried again after one that may have left).
 */
function reached(err: unknown, left: boolean): unknown {
  if (!left || !(err instanceof LinedeskError) || err.outcome !== 'not_sent') return err;
  if (err instanceof NetworkError) return new NetworkError(err.message, 'unknown', err.code);
  if (err instanceof TimeoutError) return new TimeoutError(err.message, 'unknown');
  if (err instanceof AbortedError) return new AbortedError('unknown');
  return err;
}

/** Aborted, it rejects with `outcome`: what the attempts before it may have done. */
function sleep(ms: number, signal: AbortSignal | undefined, outcome: 'not_sent' | 'unknown'): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError(outcome));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(outcome));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Every failure the client reports is one of these. `outcome` is what the caller must know before
 * doing anything else with a credit-spending request:
 *  - `not_sent`: nothing reached the server (invalid request, connection refused, DNS, connect timeout,
 *    a request made ahead that ended before its gate opened: nothing written on its connection);
 *  - `rejected`: the server answered and applied nothing (4xx);
 *  - `unknown`: it may have been applied (reset or timeout after sending, 5xx, a 2xx we cannot read).
 * Messages are built here from sanitized parts and never include the API key.
 */
export type Outcome = 'not_sent' | 'rejected' | 'unknown';

export interface FieldIssue {
  /** Field path, e.g. ['username'] or ['bouquets', '2']. */
  readonly path: readonly string[];
  readonly message: string;
  readonly code?: string;
}

export abstract class LinedeskError extends Error {
  abstract readonly outcome: Outcome;
  override readonly name: string = this.constructor.name;
}

/** The request broke a rule of the contract; it was not sent. */
export class RequestValidationError extends LinedeskError {
  readonly outcome = 'not_sent' as const;
  constructor(
    readonly endpoint: string,
    readonly issues: readonly FieldIssue[],
  ) {
    super(`${endpoint}: ${issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`);
  }
}

/** The base URL or configuration cannot be used; nothing was sent. */
export class ConfigError extends LinedeskError {
  readonly outcome = 'not_sent' as const;
}

/**
 * The server (or something in front of it) answered with an error; `status` is the HTTP status.
 * Only a refusal the interface documents proves nothing was applied: a 4xx whose body parses as one
 * of the Errors table's shapes (`documented`). A 3xx, a proxy's HTML page, a 5xx, a body with a code
 * the interface does not list: the request may have been applied behind it, so the outcome is unknown.
 */
export abstract class ApiError extends LinedeskError {
  constructor(
    readonly status: number,
    message: string,
    /** The body is one of the interface's documented refusals. */
    readonly documented = true,
  ) {
    super(message);
  }
  get outcome(): Outcome {
    return this.documented && this.status >= 400 && this.status < 500 ? 'rejected' : 'unknown';
  }
}

/** 400 request_errors: field paths kept so a form can put each message at its field. */
export class RequestErrors extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly issues: readonly FieldIssue[],
    documented = true,
  ) {
    super(
      status,
      `${message}${issues.length ? `: ${issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` : ''}`,
      documented,
    );
  }
}

export class NotAuthorized extends ApiError {}

export class RateLimited extends ApiError {
  constructor(
    status: number,
    message: string,
    /** From Retry-After, already clamped; null when the server gave none. */
    readonly retryAfterMs: number | null,
    documented = true,
  ) {
    super(status, message, documented);
  }
}

export class ServerError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly requestId: string | null,
  ) {
    super(status, requestId ? `${message} (request ${requestId})` : message, false);
  }
}

export class InsufficientBalance extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly balance: number,
    readonly minBalance: number,
  ) {
    super(status, message);
  }
}

export class LineNotFound extends ApiError {}

/** The message-only body: username already taken, or the selected duration is unavailable. */
export class Conflict extends ApiError {}

/** An error status whose body matched nothing in the Errors table. */
export class UnexpectedStatus extends ApiError {}

/** The network failed. `outcome` says whether the request could have reached the server. */
export class NetworkError extends LinedeskError {
  constructor(
    message: string,
    readonly outcome: 'not_sent' | 'unknown',
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** The overall deadline passed. Before a connection existed it is `not_sent`, after it `unknown`. */
export class TimeoutError extends LinedeskError {
  constructor(
    message: string,
    readonly outcome: 'not_sent' | 'unknown',
  ) {
    super(message);
  }
}

/** A 2xx (or error) body that does not match the contract; names the field path. */
export class ProtocolError extends LinedeskError {
  readonly outcome = 'unknown' as const;
  constructor(
    message: string,
    readonly path: string | null,
  ) {
    super(message);
  }
}

/** The caller aborted (e.g. a newer search replaced this one): `not_sent` when nothing was written yet. */
export class AbortedError extends LinedeskError {
  constructor(readonly outcome: 'not_sent' | 'unknown') {
    super('The request was cancelled');
  }
}

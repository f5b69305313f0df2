import {
  ConfigError,
  Conflict,
  InsufficientBalance,
  LineNotFound,
  NetworkError,
  NotAuthorized,
  ProtocolError,
  RateLimited,
  RequestErrors,
  RequestValidationError,
  ServerError,
  TimeoutError,
} from '../api/errors';
import { ConfigError as ConfigFileError } from '../app/config-error';
import { describeError } from '../services/describe-error';
import { ListChangedError, PagingError } from '../services/page-walk';
import type { Failure } from './output';

/** The exit codes, documented in every --help and in docs/SCRIPTING.md. */
export const EXIT = {
  done: 0,
  failed: 1,
  usage: 2,
  unknown: 3,
  notConfirmed: 4,
  unreachable: 5,
  /** Some lines applied (charged), others not: a script that retries on non-zero must retry only those. */
  partial: 6,
  /** `runway`: the balance does not cover the renewals of the window (a cron job's alarm). */
  shortfall: 7,
} as const;

export const usageFailure = (message: string, path: readonly string[] | null = null): Failure => ({
  code: 'usage',
  message,
  path,
  exit: EXIT.usage,
});

/** A thrown error as the command reports it; the message is the one the app shows (never the key). */
export function failureOf(err: unknown): Failure {
  const message = describeError(err);
  const f = (code: string, exit: number, path: readonly string[] | null = null): Failure => ({
    code,
    message,
    path,
    exit,
  });
  if (err instanceof NetworkError || err instanceof TimeoutError) return f('unreachable', EXIT.unreachable);
  if (err instanceof RequestValidationError)
    return f('invalid_field', EXIT.usage, err.issues[0]?.path.length ? err.issues[0].path : null);
  if (err instanceof RequestErrors)
    return f('request_errors', EXIT.failed, err.issues[0]?.path.length ? err.issues[0].path : null);
  if (err instanceof NotAuthorized) return f('not_authorized', EXIT.failed);
  if (err instanceof RateLimited) return f('rate_limit', EXIT.failed);
  if (err instanceof ServerError) return f('server_error', EXIT.failed);
  if (err instanceof InsufficientBalance) return f('insufficient_balance', EXIT.failed);
  if (err instanceof LineNotFound) return f('line_not_found', EXIT.failed);
  if (err instanceof Conflict) return f('conflict', EXIT.failed);
  if (err instanceof ProtocolError) return f('protocol_error', EXIT.failed);
  if (err instanceof PagingError) return f('paging', EXIT.failed);
  // A read that could not finish: nothing was applied, so 1 ("failed"); the code tells a script it may
  // simply run again.
  if (err instanceof ListChangedError) return f('list_changed', EXIT.failed);
  if (err instanceof ConfigError) return f('config', EXIT.usage);
  if (err instanceof ConfigFileError)
    return { code: 'config', message: err.message, path: null, exit: EXIT.usage };
  return f('internal', EXIT.failed);
}

import { ConfigError as ConfigFileError } from '../app/config-error';
import { describeError, type ErrorKind, errorKind } from '../services/describe-error';
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

/** A command's exit for each kind of failure (the code is the kind's name). */
const EXIT_OF: Readonly<Record<ErrorKind['kind'], number>> = {
  unreachable: EXIT.unreachable,
  invalid_field: EXIT.usage,
  request_errors: EXIT.failed,
  not_authorized: EXIT.failed,
  rate_limit: EXIT.failed,
  server_error: EXIT.failed,
  insufficient_balance: EXIT.failed,
  line_not_found: EXIT.failed,
  conflict: EXIT.failed,
  protocol_error: EXIT.failed,
  paging: EXIT.failed,
  // A read that could not finish: nothing was applied, so 1 ("failed"); the code tells a script it may
  // simply run again.
  list_changed: EXIT.failed,
  config: EXIT.usage,
  internal: EXIT.failed,
};

/** A thrown error as the command reports it; the message is the one the app shows (never the key). */
export function failureOf(err: unknown): Failure {
  if (err instanceof ConfigFileError)
    return { code: 'config', message: err.message, path: null, exit: EXIT.usage };
  const k = errorKind(err);
  const issue = k.kind === 'invalid_field' || k.kind === 'request_errors' ? k.err.issues[0] : undefined;
  return {
    code: k.kind,
    message: describeError(err),
    path: issue?.path.length ? issue.path : null,
    exit: EXIT_OF[k.kind],
  };
}

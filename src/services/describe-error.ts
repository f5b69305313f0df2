import {
  ConfigError,
  Conflict,
  InsufficientBalance,
  LinedeskError,
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
import { sanitizeMultiline } from '../api/sanitize';
import { ListChangedError, PagingError } from './page-walk';

/** What a file error means, in words: the disk is named for what it is, never a guess about others. */
const DISK: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EIO: 'the disk failed to read or write',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EMFILE: 'too many files are open',
};

/**
 * What kind of failure an error is: the one rule both the app's sentence (`describeError`) and a
 * command's code and exit (headless/failure.ts) are read from, with the error as that kind.
 */
export type ErrorKind =
  | { readonly kind: 'unreachable'; readonly err: NetworkError | TimeoutError }
  | { readonly kind: 'invalid_field'; readonly err: RequestValidationError }
  | { readonly kind: 'request_errors'; readonly err: RequestErrors }
  | { readonly kind: 'not_authorized'; readonly err: NotAuthorized }
  | { readonly kind: 'rate_limit'; readonly err: RateLimited }
  | { readonly kind: 'server_error'; readonly err: ServerError }
  | { readonly kind: 'insufficient_balance'; readonly err: InsufficientBalance }
  | { readonly kind: 'line_not_found'; readonly err: LineNotFound }
  | { readonly kind: 'conflict'; readonly err: Conflict }
  | { readonly kind: 'protocol_error'; readonly err: ProtocolError }
  | { readonly kind: 'paging'; readonly err: PagingError }
  | { readonly kind: 'list_changed'; readonly err: ListChangedError }
  | { readonly kind: 'config'; readonly err: ConfigError }
  | { readonly kind: 'internal'; readonly err: unknown };

export function errorKind(err: unknown): ErrorKind {
  if (err instanceof NetworkError || err instanceof TimeoutError) return { kind: 'unreachable', err };
  if (err instanceof RequestValidationError) return { kind: 'invalid_field', err };
  if (err instanceof RequestErrors) return { kind: 'request_errors', err };
  if (err instanceof NotAuthorized) return { kind: 'not_authorized', err };
  if (err instanceof RateLimited) return { kind: 'rate_limit', err };
  if (err instanceof ServerError) return { kind: 'server_error', err };
  if (err instanceof InsufficientBalance) return { kind: 'insufficient_balance', err };
  if (err instanceof LineNotFound) return { kind: 'line_not_found', err };
  if (err instanceof Conflict) return { kind: 'conflict', err };
  if (err instanceof ProtocolError) return { kind: 'protocol_error', err };
  if (err instanceof PagingError) return { kind: 'paging', err };
  if (err instanceof ListChangedError) return { kind: 'list_changed', err };
  if (err instanceof ConfigError) return { kind: 'config', err };
  return { kind: 'internal', err };
}

/** One sentence a person can act on. Messages are built from sanitized parts; never the key. */
export function describeError(error: unknown): string {
  const k = errorKind(error);
  switch (k.kind) {
    case 'rate_limit': {
      const ms = k.err.retryAfterMs;
      return `The service is rate-limiting requests${ms !== null ? `; try again in ${Math.ceil(ms / 1000)} s` : ''}.`;
    }
    case 'not_authorized':
      return 'The API key was refused (not authorized). Check the key for this account.';
    case 'server_error':
      return `The service failed${k.err.requestId ? ` (request ${k.err.requestId})` : ''}: ${k.err.message.replace(/ \(request [^)]*\)$/, '')}`;
    case 'insufficient_balance':
      return `Not enough credits: balance ${k.err.balance}, at least ${k.err.minBalance} needed.`;
    case 'invalid_field':
    case 'request_errors':
      if (!k.err.issues.length) return k.err.message;
      // Nothing was sent: each broken rule is its own sentence, which names its field.
      if (k.kind === 'invalid_field')
        return k.err.issues.map((i) => ruleSentence(i.path, i.message)).join(' ');
      return k.err.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
    // The retry key is named where the error is shown (it is not the same key everywhere).
    case 'unreachable':
      return `${k.err.message}.`;
    case 'protocol_error':
      return `Unexpected answer from the service: ${k.err.message}`;
    case 'paging':
      return `the server's paging cannot be trusted: ${k.err.message}`;
    case 'line_not_found':
    case 'conflict':
    case 'list_changed':
    case 'config':
      return k.err.message;
    case 'internal':
      return internalSentence(k.err);
  }
}

/** An error of no kind above: linedesk's own says itself; a file error names the disk's trouble. */
function internalSentence(err: unknown): string {
  if (err instanceof LinedeskError) return err.message;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (err instanceof Error && typeof code === 'string' && DISK[code]) {
    const path = (err as NodeJS.ErrnoException).path;
    return `${DISK[code]}${path ? `: ${sanitizeMultiline(path)}` : ''} (${code})`;
  }
  // Anything else is a bug of ours; the log has the stack.
  return `Unexpected error: ${sanitizeMultiline(err instanceof Error ? err.message : String(err))}`;
}

/** A rule's message as a sentence: the contract's own (capitalised) stands alone; anything else
 *  (a rule without its own words) is named by its field. */
function ruleSentence(path: readonly string[], message: string): string {
  const text = /^[A-Z]/.test(message) ? message : `${path.join('.') || 'The request'}: ${message}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

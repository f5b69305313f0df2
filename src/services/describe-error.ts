import {
  ConfigError,
  InsufficientBalance,
  LinedeskError,
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

/** One sentence a person can act on. Messages are built from sanitized parts; never the key. */
export function describeError(err: unknown): string {
  if (err instanceof RateLimited) {
    const wait = err.retryAfterMs !== null ? `; try again in ${Math.ceil(err.retryAfterMs / 1000)} s` : '';
    return `The service is rate-limiting requests${wait}.`;
  }
  if (err instanceof NotAuthorized)
    return 'The API key was refused (not authorized). Check the key for this account.';
  if (err instanceof ServerError) {
    return `The service failed${err.requestId ? ` (request ${err.requestId})` : ''}: ${err.message.replace(/ \(request [^)]*\)$/, '')}`;
  }
  if (err instanceof InsufficientBalance) {
    return `Not enough credits: balance ${err.balance}, at least ${err.minBalance} needed.`;
  }
  // Nothing was sent: each broken rule is its own sentence, which names its field.
  if (err instanceof RequestValidationError && err.issues.length) {
    return err.issues.map((i) => ruleSentence(i.path, i.message)).join(' ');
  }
  if (err instanceof RequestErrors || err instanceof RequestValidationError) {
    return err.issues.length
      ? err.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')
      : err.message;
  }
  // The retry key is named where the error is shown (it is not the same key everywhere).
  if (err instanceof TimeoutError) return `${err.message}.`;
  if (err instanceof NetworkError) return `${err.message}.`;
  if (err instanceof ProtocolError) return `Unexpected answer from the service: ${err.message}`;
  if (err instanceof ConfigError) return err.message;
  if (err instanceof LinedeskError) return err.message;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (err instanceof Error && typeof code === 'string' && DISK[code]) {
    const path = (err as NodeJS.ErrnoException).path;
    return `${DISK[code]}${path ? `: ${sanitizeMultiline(path)}` : ''} (${code})`;
  }
  if (err instanceof PagingError) return `the server's paging cannot be trusted: ${err.message}`;
  if (err instanceof ListChangedError) return err.message;
  // Anything else is a bug of ours; the log has the stack.
  return `Unexpected error: ${sanitizeMultiline(err instanceof Error ? err.message : String(err))}`;
}

/** A rule's message as a sentence: the contract's own (capitalised) stands alone; anything else
 *  (a rule without its own words) is named by its field. */
function ruleSentence(path: readonly string[], message: string): string {
  const text = /^[A-Z]/.test(message) ? message : `${path.join('.') || 'The request'}: ${message}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Backoff and Retry-After arithmetic; pure so it is tested without a clock. */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** No retry is started once this much time has passed since the first attempt. */
  readonly budgetMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A longer Retry-After is clamped to this. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  budgetMs: 20_000,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 30_000,
};

/** Full jitter: uniform in [0, min(max, base·2^retry)]. `retry` counts from 0. */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable; clamped to [0, max]. */
export function parseRetryAfter(value: string | null | undefined, now: number, maxMs: number): number | null {
  if (value == null) return null;
  const text = value.trim();
  if (text === '') return null;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (!Number.isFinite(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(0, Math.ceil(ms)), maxMs);
}

/** Never less than this between attempts after a 429, whatever Retry-After says (0, a past date…). */
export const RATE_LIMIT_FLOOR_MS = 250;

/**
 * The pause before a 429'd request is sent again (a 429 proves it was not applied): exponential in
 * the run of 429s, with jitter, never below the floor or the server's hint, capped.
 */
export function rateLimitPause(
  policy: RetryPolicy,
  consecutive429: number,
  hintMs: number | null,
  random: () => number,
): number {
  const exp = Math.min(policy.maxDelayMs, RATE_LIMIT_FLOOR_MS * 2 ** Math.min(consecutive429, 10));
  const jittered = RATE_LIMIT_FLOOR_MS + Math.floor(random() * (exp - RATE_LIMIT_FLOOR_MS + 1));
  return Math.min(policy.maxRetryAfterMs, Math.max(jittered, hintMs ?? 0, RATE_LIMIT_FLOOR_MS));
}

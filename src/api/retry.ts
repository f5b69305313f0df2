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

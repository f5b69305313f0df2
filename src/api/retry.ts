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

/** Never less than this between two attempts, whatever the server says (Retry-After 0, a past date…). */
export const RATE_LIMIT_FLOOR_MS = 250;

/**
 * Jitter over an exponential ceiling: uniform in [floor, min(max, base·2^retry)], the floor being
 * `min(250 ms, maxDelayMs)` (tests shrink the whole policy). `retry` counts from 0.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const floor = Math.min(RATE_LIMIT_FLOOR_MS, policy.maxDelayMs);
  const ceiling = Math.max(floor, Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 20)));
  return floor + Math.floor(random() * (ceiling - floor));
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

/**
 * The pause before a 429'd request is sent again (a 429 proves it was not applied): exponential in
 * the run of 429s, with jitter, never below the floor or the server's hint, capped. The floor is
 * 250 ms (less only for a policy whose `maxDelayMs` is smaller: tests shrink time that way).
 */
export function rateLimitPause(
  policy: RetryPolicy,
  consecutive429: number,
  hintMs: number | null,
  random: () => number,
): number {
  const floor = Math.min(RATE_LIMIT_FLOOR_MS, policy.maxDelayMs);
  const exp = Math.max(floor, Math.min(policy.maxDelayMs, floor * 2 ** Math.min(consecutive429, 10)));
  const jittered = floor + Math.floor(random() * (exp - floor + 1));
  return Math.max(floor, Math.min(policy.maxRetryAfterMs, Math.max(jittered, hintMs ?? 0)));
}

type Headers = Record<string, string | string[] | undefined>;
const first = (h: Headers, name: string): string | null => {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
};

/**
 * How long the server asks us to wait: `Retry-After`, else the reset of an exhausted window from
 * `RateLimit-Reset` (delta seconds, the IETF draft) or `X-RateLimit-Reset` (delta seconds, or an epoch
 * time in seconds when it is larger than 10^9: no delta is that long). Null when nothing usable is
 * given; clamped to [0, max]. The floor is applied by whoever waits.
 */
export function rateLimitHint(headers: Headers, now: number, maxMs: number): number | null {
  const retryAfter = parseRetryAfter(first(headers, 'retry-after'), now, maxMs);
  if (retryAfter !== null) return retryAfter;
  for (const prefix of ['ratelimit', 'x-ratelimit']) {
    const remaining = first(headers, `${prefix}-remaining`);
    const reset = first(headers, `${prefix}-reset`)?.trim();
    if (!reset || !/^\d+(\.\d+)?$/.test(reset) || (remaining !== null && remaining.trim() !== '0')) continue;
    const n = Number(reset);
    const ms = n > 1e9 ? n * 1000 - now : n * 1000;
    return Math.min(Math.max(0, Math.ceil(ms)), maxMs);
  }
  return null;
}

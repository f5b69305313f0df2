/**
 * A token bucket per API key: `rate` requests per second sustained, bursts of 2×rate.
 * rate 0 turns limiting off. Checked before any side effect.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private rate: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  setRate(rate: number): void {
    this.rate = rate;
    this.#buckets.clear();
  }

  get limit(): number {
    return this.rate;
  }

  /** Takes one token; answers how long to wait (ms) when none is left, and what remains. */
  take(key: string): { ok: boolean; retryAfterMs: number; remaining: number } {
    if (this.rate <= 0) return { ok: true, retryAfterMs: 0, remaining: Number.POSITIVE_INFINITY };
    const burst = this.rate * 2;
    const t = this.now();
    const b = this.#buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * this.rate);
    b.at = t;
    this.#buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true, retryAfterMs: 0, remaining: Math.floor(b.tokens) };
    }
    return { ok: false, retryAfterMs: Math.ceil(((1 - b.tokens) / this.rate) * 1000), remaining: 0 };
  }
}

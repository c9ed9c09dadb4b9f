// A sliding window of attempts: at most `limit` in any `windowMs`. Login attempts go through one, so
// guessing a login token is slow as well as hopeless (tokens are 256 random bits).
export class RateLimit {
  private times: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Count an attempt at `now`; false when the window already holds `limit` (it is not counted). */
  take(now = Date.now()): boolean {
    while (this.times.length && this.times[0]! <= now - this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) return false;
    this.times.push(now);
    return true;
  }

  /** Milliseconds until the next attempt may be taken. */
  retryAfterMs(now = Date.now()): number {
    return this.times.length < this.limit ? 0 : Math.max(0, this.times[0]! + this.windowMs - now);
  }
}

// Per-stream backoff after failed polls: the interval doubled per consecutive failure, capped, with jitter
// (half to full), so one broken account does not eat the budget and many do not retry in step. Times are on the
// monotonic clock; a wait longer than any backoff (a clock that went back) counts as over, so no stream stalls.
export class Backoff {
  private readonly failures = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
    private readonly random: () => number,
  ) {}

  ready(key: string, now: number): boolean {
    const f = this.failures.get(key);
    return !f || f.until <= now || f.until - now > this.maxMs;
  }

  failed(key: string, now: number): number {
    const count = (this.failures.get(key)?.count ?? 0) + 1;
    const delay = Math.min(this.maxMs, this.baseMs * 2 ** (count - 1)) * (0.5 + this.random() * 0.5);
    this.failures.set(key, { count, until: now + delay });
    return delay;
  }

  succeeded(key: string): void {
    this.failures.delete(key);
  }
}

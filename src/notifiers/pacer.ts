// Paces sends to one receiver: at most one per interval (Slack: one message per second per webhook), and no
// sends at all until a Retry-After has passed. Reservation-based, so concurrent callers queue in order.

export interface Pacer {
  /** Resolves when this caller may send. */
  wait(signal: AbortSignal): Promise<void>;
  /** The receiver asked for a pause (429 Retry-After): nobody sends before now + ms. */
  pause(ms: number): void;
}

export interface PacerDeps {
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function createPacer(intervalMs: number, deps: PacerDeps): Pacer {
  let nextAt = 0;
  return {
    async wait(signal) {
      const now = deps.now();
      const at = Math.max(nextAt, now);
      nextAt = at + intervalMs;
      if (at > now) await deps.sleep(at - now, signal);
    },
    pause(ms) {
      nextAt = Math.max(nextAt, deps.now() + ms);
    },
  };
}

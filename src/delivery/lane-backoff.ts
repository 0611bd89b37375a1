// A lane that fails (not a receiver's error, which deliver() records per row, but the lane itself: the state store
// refused a write, a fenced replica's durable() rejected) holds its channel back with a bounded exponential
// backoff, so that a failure that repeats at once can never turn the delivery worker into a loop that claims,
// fails and logs thousands of times a second. The failure is logged once per change of state: when the channel
// starts failing, when the reason changes, and when a lane of it ends well again.
import type { Logger } from '../observability/logger.js';

/** First wait after a lane failed; doubled per failure in a row, up to MAX_MS. */
export const LANE_BACKOFF_INITIAL_MS = 500;
export const LANE_BACKOFF_MAX_MS = 30_000;

interface Failing {
  readonly reason: string;
  readonly failures: number;
  readonly until: number;
}

export interface LaneBackoff {
  /** A lane of channel failed at `now`: holds the channel back, logs when this is news. */
  failed(channel: string, err: unknown, now: number): void;
  /** A lane of channel ended well: the backoff is over (logged once when it was failing). */
  succeeded(channel: string): void;
  /** Channels held back at `now`, with the time each may run a lane again. */
  held(now: number): Map<string, number>;
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createLaneBackoff(log: Logger): LaneBackoff {
  const failing = new Map<string, Failing>();
  return {
    failed(channel, err, now) {
      const before = failing.get(channel);
      const failures = (before?.failures ?? 0) + 1;
      const waitMs = Math.min(LANE_BACKOFF_MAX_MS, LANE_BACKOFF_INITIAL_MS * 2 ** Math.min(failures - 1, 16));
      const reason = reasonOf(err);
      failing.set(channel, { reason, failures, until: now + waitMs });
      if (before?.reason === reason) return;
      log.error(
        { err, notifier: channel, retryInMs: waitMs },
        'delivery lane failed: the channel is held back and retried with backoff (logged again when the reason changes or it recovers)',
      );
    },
    succeeded(channel) {
      const before = failing.get(channel);
      if (!before) return;
      failing.delete(channel);
      log.info({ notifier: channel, failures: before.failures }, 'delivery lane recovered');
    },
    held(now) {
      const held = new Map<string, number>();
      for (const [channel, f] of failing) if (f.until > now) held.set(channel, f.until);
      return held;
    },
  };
}

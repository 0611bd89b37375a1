// The one tail loop: a round every poll_interval (± jitter) until the signal aborts. Tailer.run uses it as is;
// the daemon's loop (daemon-loop.ts) adds an observer that keeps each round's report for readiness and
// self-monitoring.
import type { Logger } from 'pino';
import type { RoundReport } from '../tailer-types.js';

export interface RoundLoop {
  round(signal: AbortSignal): Promise<RoundReport>;
  /** Resolves once no poll is in flight. */
  settled(): Promise<void>;
  readonly pollIntervalMs: number;
  /** Fraction of the interval added or removed at random (tail.jitter). */
  readonly jitter: number;
  /** Milliseconds, never going back (the monotonic clock): the interval is time passed, not wall time. */
  readonly clock: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log?: Logger;
}

export interface RoundObserver {
  onReport(report: RoundReport): void;
  /** A round threw (not because the signal aborted). */
  onFailure(err: unknown): void;
}

/** Resolves when the signal aborts, after the round in flight has stopped and every poll has settled. */
export async function runRounds(
  loop: RoundLoop,
  signal: AbortSignal,
  observer?: RoundObserver,
): Promise<void> {
  while (!signal.aborted) {
    const started = loop.clock();
    // At debug: bench 5 counts the polls a reload made the loop miss from these lines (docs/performance.md).
    loop.log?.debug('tail round started');
    try {
      const report = await loop.round(signal);
      observer?.onReport(report);
    } catch (err) {
      if (signal.aborted) break;
      observer?.onFailure(err);
      loop.log?.warn({ err }, 'tail round failed');
    }
    const interval = loop.pollIntervalMs * (1 + loop.jitter * (2 * loop.random() - 1));
    // Never longer than one interval, never below 0: a clock that jumps cannot stop the loop or spin it.
    const wait = Math.min(interval, interval - (loop.clock() - started));
    if (wait > 0) await loop.sleep(wait, signal).catch(() => undefined);
  }
  // A poll that outlived its round may still be running: it must settle before the store closes.
  await loop.settled();
}

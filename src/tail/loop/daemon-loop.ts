// Runs the tailer round after round (the one loop, run-rounds.ts) and keeps each round's report: readiness
// ("first poll done", "query service reachable") and the self-monitoring alerts are derived from it.
import type { Logger } from 'pino';
import type { CapacityView } from '../health/capacity-watch.js';
import type { ClockStep } from '../head/clock-watch.js';
import type { AheadSighting, FutureSighting } from '../head/future-records.js';
import { runRounds } from './run-rounds.js';
import type { Tailer } from '../tailer-types.js';

export interface TailHealth {
  /** When a round first read a page (ms since epoch). */
  firstPollAt: number | undefined;
  /** When a round last read a page: the query service answered. */
  lastReachableAt: number | undefined;
  /** Rounds in a row in which every request failed. */
  failedRounds: number;
  /** The latest record beyond now + tail.max_clock_skew (kept across reloads, not restarts). */
  lastFuture: FutureSighting | undefined;
  /** The newest row dated ahead of this host's clock, within the skew (kept across reloads, not restarts). */
  lastAhead: AheadSighting | undefined;
  /** The latest jump of the wall clock against the monotonic clock (tail/head/clock-watch.ts). */
  lastClockStep: ClockStep | undefined;
  /** Request demand against the budget after the latest round (docs/tailing.md, "Capacity"). */
  capacity: CapacityView | undefined;
  /** Settles when a round first read a page. */
  readonly firstPoll: Promise<void>;
  markPolled(at: number): void;
}

export function createTailHealth(): TailHealth {
  let resolve = () => undefined as void;
  const firstPoll = new Promise<void>((r) => (resolve = r));
  return {
    firstPollAt: undefined,
    lastReachableAt: undefined,
    failedRounds: 0,
    lastFuture: undefined,
    lastAhead: undefined,
    lastClockStep: undefined,
    capacity: undefined,
    firstPoll,
    markPolled(at) {
      this.firstPollAt ??= at;
      this.lastReachableAt = at;
      this.failedRounds = 0;
      resolve();
    },
  };
}

export interface TailLoopOptions {
  readonly tailer: Tailer;
  readonly health: TailHealth;
  readonly pollIntervalMs: number;
  /** Fraction of the interval added or removed at random (tail.jitter). */
  readonly jitter: number;
  /** The daemon's `now`: when a round read a page. */
  readonly clock: () => number;
  /** The monotonic clock: the round interval (a wall-clock step neither stops nor spins the loop). */
  readonly monotonic: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
}

/** Resolves when the signal aborts (after the round in flight has stopped and every poll has settled). */
export function runTailLoop(options: TailLoopOptions, signal: AbortSignal): Promise<void> {
  const { tailer, health, clock } = options;
  const loop = { ...options, clock: options.monotonic, round: tailer.round, settled: tailer.settled };
  return runRounds(loop, signal, {
    onReport(report) {
      health.capacity = tailer.capacity();
      if (report.pages > 0) health.markPolled(clock());
      else if (report.failed > 0) health.failedRounds += 1;
    },
    onFailure() {
      health.failedRounds += 1;
    },
  });
}

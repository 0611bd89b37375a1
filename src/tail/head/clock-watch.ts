// The daemon's two clocks. The monotonic clock (performance.now) says how much time has passed: every timer that
// must not stall runs on it. The wall clock says what time it is: timestamps, windows, silences. The wall clock
// can be stepped (NTP, an operator, a VM resumed), the monotonic clock cannot; so a wall clock that moved further
// than the monotonic clock between two readings, either way, has jumped. ClockWatch sees that, logs it once per
// step, counts it and reports it (self-monitoring), and gives the daemon its `now`: the wall clock, except that
// it never goes back. After a backward step it runs on from where it was, on the monotonic clock, until the wall
// clock steps forward again (a restart takes the wall clock as it is): a timestamp that already passed stays
// passed, so no cursor, due time or window is held back by the step (docs/tailing.md, "Clock steps").
import type { Logger } from 'pino';
import type { Metrics } from '../../observability/metrics.js';

/** A jump of the wall clock against the monotonic clock. */
export interface ClockStep {
  /** The daemon's `now` after the step, ms since the epoch. */
  readonly atMs: number;
  /** How far the wall clock moved beyond the time that passed, ms: above 0 forward, below 0 backward. */
  readonly stepMs: number;
  /** How far the daemon's `now` is ahead of the wall clock after the step, ms (0 after a forward step). */
  readonly heldMs: number;
}

export interface ClockWatchOptions {
  /** Milliseconds since the epoch; default Date.now. */
  readonly wall?: () => number;
  /** Milliseconds from any origin, never decreasing; default performance.now. */
  readonly monotonic?: () => number;
  /** A difference between the two clocks' progress above this is a step; default 2 s. */
  readonly toleranceMs?: number;
  readonly log?: Logger;
  readonly metrics?: Pick<Metrics, 'clockSteps'>;
  readonly onStep?: (step: ClockStep) => void;
}

export const DEFAULT_STEP_TOLERANCE_MS = 2_000;

export interface ClockWatch {
  /** The daemon's `now`, ms since the epoch: the wall clock, never going back (checks for a step). */
  now(): number;
  /** The monotonic clock, ms: for every elapsed time and every timer. */
  monotonic(): number;
  /** The latest step seen, if any. */
  readonly lastStep: ClockStep | undefined;
  /** Steps seen so far. */
  readonly steps: number;
}

export function createClockWatch(options: ClockWatchOptions = {}): ClockWatch {
  const wall = options.wall ?? Date.now;
  const monotonic = options.monotonic ?? (() => performance.now());
  const tolerance = options.toleranceMs ?? DEFAULT_STEP_TOLERANCE_MS;
  let lastWall = wall();
  let lastMono = monotonic();
  /** How far `now` is ahead of the wall clock: above 0 only after a backward step. */
  let held = 0;
  let lastNow = lastWall;
  let latest: ClockStep | undefined;
  let steps = 0;

  function now(): number {
    const w = wall();
    const m = monotonic();
    // A monotonic clock that went back (a tool faking it too) counts as no time passed.
    const passed = Math.max(0, m - lastMono);
    const drift = w - lastWall - passed;
    lastWall = w;
    lastMono = m;
    if (Math.abs(drift) > tolerance) {
      // Continuous across the step: from where `now` was, plus the time that really passed; never behind the wall.
      // Whole milliseconds, as Date.now: performance.now's fractions would reach integer (bigint) state columns.
      held = Math.max(0, Math.ceil(lastNow + passed - w));
      report(drift, w + held);
    }
    lastNow = Math.max(lastNow, w + held);
    return lastNow;
  }

  function report(stepMs: number, atMs: number): void {
    steps += 1;
    latest = { atMs, stepMs: Math.round(stepMs), heldMs: Math.round(held) };
    options.metrics?.clockSteps.inc({ direction: stepMs > 0 ? 'forward' : 'backward' });
    options.log?.warn(
      { stepMs: latest.stepMs, heldMs: latest.heldMs, wall: isoOrNull(wall()), toleranceMs: tolerance },
      stepMs > 0
        ? 'wall clock jumped forward: followed (timers run on the monotonic clock and are not affected)'
        : 'wall clock jumped backward: the daemon keeps its own time, ahead of the wall clock by heldMs, until the ' +
            'wall clock steps forward again (timers run on the monotonic clock; restart the daemon if the wall ' +
            'clock was wrong before the step and is right now)',
    );
    options.onStep?.(latest);
  }

  return {
    now,
    monotonic,
    get lastStep() {
      return latest;
    },
    get steps() {
      return steps;
    },
  };
}

function isoOrNull(ms: number): string | null {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

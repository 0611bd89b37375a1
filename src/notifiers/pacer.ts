// Paces sends to one receiver: at most one per interval (Slack: one message per second per webhook), and no
// sends at all until a Retry-After has passed. Reservation-based, so concurrent callers queue in order.

export interface Pacer {
  /** Resolves when this caller may send. */
  wait(signal: AbortSignal): Promise<void>;
  /** The receiver asked for a pause (429 Retry-After): nobody sends before now + ms. */
  pause(ms: number): void;
}

/** One pacer per receiver, shared by every notifier that sends there (two notifiers, one webhook: one pace). */
export interface Pacers {
  /** The pacer of `receiver`; notifiers sharing a receiver are spaced by the largest interval any of them asks. */
  pacer(receiver: string, intervalMs: number): Pacer;
}

export interface PacerDeps {
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function createPacers(deps: PacerDeps): Pacers {
  const lanes = new Map<string, Lane>();
  return {
    pacer(receiver, intervalMs) {
      const lane = lanes.get(receiver) ?? newLane(intervalMs, deps);
      lane.intervalMs = Math.max(lane.intervalMs, intervalMs);
      lanes.set(receiver, lane);
      return lane.pacer;
    },
  };
}

interface Lane {
  intervalMs: number;
  readonly pacer: Pacer;
}

function newLane(intervalMs: number, deps: PacerDeps): Lane {
  const lane: Lane = { intervalMs, pacer: createPacer(() => lane.intervalMs, deps) };
  return lane;
}

function createPacer(intervalMs: () => number, deps: PacerDeps): Pacer {
  let nextAt = 0;
  return {
    async wait(signal) {
      const now = deps.now();
      const at = Math.max(nextAt, now);
      nextAt = at + intervalMs();
      if (at > now) await deps.sleep(at - now, signal);
    },
    pause(ms) {
      nextAt = Math.max(nextAt, deps.now() + ms);
    },
  };
}

// Paces sends to one receiver: at most one per interval (Slack: one message per second per webhook), and no
// sends at all until a Retry-After has passed. Reservation-based, so concurrent callers queue in order.
//
// A pacer never holds a caller longer than one interval: while the receiver is paused by a Retry-After, or when
// the next free slot is further away than that, wait() throws a deferred NotifyError instead of sleeping. The
// delivery worker then postpones the row to that time without counting an attempt, and its lane (and every other
// channel's) goes on at once: a paused receiver never holds a delivery pass.
import { NotifyError } from '../notifiers/notifier.js';
import type { Pacer, Pacers } from '../notifiers/notifier-kind.js';

export type { Pacer, Pacers } from '../notifiers/notifier-kind.js';

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
  let pausedUntil = 0;
  let askedMs: number | undefined;
  return {
    async wait(signal) {
      const now = deps.now();
      if (pausedUntil > now) throw deferred(pausedUntil - now, askedMs, 'paused');
      const at = Math.max(nextAt, now);
      if (at - now > intervalMs()) throw deferred(at - now, undefined, 'paced');
      nextAt = at + intervalMs();
      if (at > now) await deps.sleep(at - now, signal);
    },
    pause(ms, asked) {
      const until = deps.now() + Math.max(0, ms);
      if (until <= pausedUntil) return;
      pausedUntil = until;
      askedMs = asked ?? ms;
    },
  };
}

function deferred(ms: number, askedMs: number | undefined, reason: 'paused' | 'paced'): NotifyError {
  const message =
    reason === 'paused'
      ? `receiver paused by its Retry-After for ${Math.ceil(ms / 1000)} s more; not sent, postponed`
      : `receiver busy with earlier messages for ${Math.ceil(ms / 1000)} s; not sent, postponed`;
  return new NotifyError(message, {
    retryable: true,
    deferred: true,
    retryAfterMs: ms,
    ...(askedMs === undefined ? {} : { askedRetryAfterMs: askedMs }),
    reason,
  });
}
